package com.orderconsole.ui.audit;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.ui.ConsoleFxTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The Audit page by click: every action listed, then filtered by actor. */
class AuditViewTest extends ConsoleFxTest {

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void listsEveryActionAndFiltersByActor() throws Exception {
        createOrder("u-1");
        createOrder("u-2");
        services.transitions().transition(new Operator("paula", Role.SUPPORT), TransitionRequest.of("u-2", OrderStatus.PAID, "console", "paid"));
        services.follower().catchUp(Duration.ofSeconds(20));
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        waitUntil(() -> rows("#auditTable").size() == 3);
        clickOn("#actorField").write("paula");
        clickOn("#searchButton");
        waitUntil(() -> rows("#auditTable").size() == 1);
        AuditEvent e = (AuditEvent) rows("#auditTable").get(0);
        assertThat(e.orderId()).isEqualTo("u-2");
        assertThat(AuditViewModel.what(e)).isEqualTo("WAIT_PAY → PAID v2");
        assertThat(text("#pageLabel")).isEqualTo("Page 1");
    }
}

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

    /**
     * The sweeper's name is on every payment-timeout cancel; at 1280x800 a real window showed it as
     * "cancel-swee…" in a 120 px actor column.
     */
    @Test
    void theSweepersNameIsShownWholeAt1280x800() throws Exception {
        createOrder("u-3");
        services.transitions().transition(new Operator(com.orderconsole.service.queue.CancelSweeper.ACTOR, Role.SUPPORT),
                TransitionRequest.of("u-3", OrderStatus.CANCELLED, "sweeper", "payment timeout"));
        services.follower().catchUp(Duration.ofSeconds(20));
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        waitUntil(() -> rows("#auditTable").size() == 2);
        java.util.List<String> cut = new java.util.ArrayList<>();
        onFx(() -> {
            view.root().getScene().getRoot().layout();
            com.orderconsole.ui.CutTexts.collect(lookup("#auditTable").query(), "audit at 1280x800", cut);
            return null;
        });
        assertThat(cut).as("cells cut short with …").noneMatch(c -> c.contains("cancel-sweeper"));
    }
}

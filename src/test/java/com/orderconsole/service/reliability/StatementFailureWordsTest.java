package com.orderconsole.service.reliability;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue 33: a statement MySQL fails (not a lost connection, not a refused privilege) reaches the follower's log line
 * and the screens in the server's words: serve's log carried MyBatis' report ("### Error updating database. Cause:
 * java.sql.SQLSyntaxErrorException ... ### SQL: ...").
 */
class StatementFailureWordsTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    @Test
    void aFailedStatementIsSaidInTheServersWordsWithoutMyBatisText() {
        Services s = engine.services();
        Operator support = new Operator("alice", Role.SUPPORT);
        s.orders().create(support, "fw-1", null, Duration.ofMinutes(30));
        s.transitions().transition(support, TransitionRequest.of("fw-1", OrderStatus.PAID, "t", "paid"));
        RawSql.update("RENAME TABLE sync_cursor TO sync_cursor_away");
        try {
            // What the follower's loop logs every 30 s while it cannot sync.
            String said = assertThrows(RuntimeException.class, () -> s.follower().drainOnce()).getMessage();
            assertThat(said).contains("sync_cursor").contains("doesn't exist").startsWith("MySQL at ");
            assertThat(said).doesNotContain("###").doesNotContain("java.").doesNotContain("ibatis").doesNotContain("Exception")
                    .doesNotContain("\n");
        } finally {
            RawSql.update("RENAME TABLE sync_cursor_away TO sync_cursor");
        }
        s.follower().drainOnce();
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'fw-1'")).isEqualTo(OrderStatus.PAID.code());
    }
}

package com.orderconsole.cli;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.app.Messages;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An audit row holding control characters (a NUL in its order id, a line break or an escape sequence in its words, stored
 * by hand or by an older release) prints as one line with each of them escaped.
 */
class AuditControlCharactersCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void theAuditLinesPrintControlCharactersEscaped() {
        RawSql.update("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (1, 'olga', 'cli', "
                + "'REPAIR', CONCAT('A-1', CHAR(0), 'x'), CONCAT('two', CHAR(10), 'lines'), CONCAT(CHAR(27), '[2J'))");
        CliRunner.Run run = CliRunner.cli("audit", "--limit", "5");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("A-1\\u0000x").contains("two\\u000alines").contains("\\u001b[2J")
                .doesNotContain("\u0000").doesNotContain("\u001b");
        assertThat(run.out().lines().filter(l -> l.contains("REPAIR"))).hasSize(1);
    }
}

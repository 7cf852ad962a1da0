package com.orderconsole.i18n;

import com.orderconsole.app.Messages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's count messages read singular for one and plural otherwise ("1 conflict", not "1 conflicts";
 * the CLI's are in BulkAuditCliTest), with the figures of 1,000 and more grouped as before.
 */
class CountWordsTest {
    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void oneReadsSingularAndManyPlural() {
        Messages.use(Locale.ENGLISH);
        assertThat(Messages.format("recon.checked", 1, "2 s")).isEqualTo("1 order in 2 s");
        assertThat(Messages.format("recon.checked", 1234, "2 s")).isEqualTo("1,234 orders in 2 s");
        assertThat(Messages.format("recon.checked.filtered", 1, "2 s")).startsWith("1 order in 2 s (filtered");
        assertThat(Messages.format("audit.exported", 1, "a.csv")).isEqualTo("Exported 1 action to a.csv.");
        assertThat(Messages.format("bulk.exported", 1, "a.csv")).isEqualTo("Exported 1 result to a.csv.");
        assertThat(Messages.format("bulk.exported", 0, "a.csv")).isEqualTo("Exported 0 results to a.csv.");
        assertThat(Messages.format("bulk.preview.summary", 1, "PAID", 1, 0, 3)).startsWith("1 order matches. To PAID: 1 would move");
        assertThat(Messages.format("bulk.batch.counts", 5, 3, 1, 1, 0, 0)).contains("1 conflict, 0 failed");
        assertThat(Messages.format("bulk.batch.summary", 7, "DONE", 3, 1, 1, 0, 0)).contains("1 conflict (moved since the preview");
        assertThat(Messages.format("bulk.progress.counts", 3, 1, 1, 0)).contains("1 conflict, 0 failed");
        assertThat(Messages.format("bulk.confirm.statement", 1, "PAID")).isEqualTo("Move 1 order to PAID?");
        assertThat(Messages.format("bulk.confirm.button", 2)).isEqualTo("Move 2 orders");
        assertThat(Messages.format("recon.detail.SYNC_PENDING", "1", 40)).doesNotContain("1 changes");
    }
}

package com.orderconsole.ui.recon;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.service.recon.Reconciliation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** A repair's dry run, shown before it is confirmed, reads in the language in use (the service names its steps in English). */
class RepairPlanWordsTest {
    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void aDryRunIsChineseInChinese() {
        Messages.use(Languages.ZH_CN);
        String text = ReconciliationViewModel.planText(List.of(
                new Reconciliation.RepairStep("o-1", "MySQL → Redis", "PAID v2"),
                new Reconciliation.RepairStep("o-2", "MySQL → Redis", "left to the dead-letter list"),
                new Reconciliation.RepairStep("o-3", "MySQL deadline → cancel queue", "queued"),
                new Reconciliation.RepairStep("", "outbox → MySQL", "applied by the follower")));
        assertThat(text).contains("o-1: MySQL → Redis，结果 已支付 v2", "留在死信列表", "MySQL 截止时间 → 取消队列", "已入队",
                "由 MySQL 跟随器写入");
        assertThat(text).doesNotContainPattern("\\b(?!Redis\\b|MySQL\\b)[a-z]{3,}");
    }

    @Test
    void aRepairsProgressNamesItsCategoryInChinese() {
        Messages.use(Languages.ZH_CN);
        String line = ReconciliationViewModel.progressLine(com.orderconsole.ui.common.RepairText.phase("repairing Missing in Redis"), 1, 2, 1000);
        assertThat(line).contains(Messages.get("recon.category.MISSING_IN_REDIS")).doesNotContain("repairing");
    }

    @Test
    void aRepairsFailuresAreChineseInChinese() {
        Messages.use(Languages.ZH_CN);
        String text = ReconciliationViewModel.repairText(new com.orderconsole.service.recon.RepairResult(
                com.orderconsole.service.recon.ReconCategory.MALFORMED_IN_REDIS, 3, 1, 2,
                List.of("o-1: MySQL has no record of it: it stays in the dead-letter list",
                        "o-2: Redis is ahead of MySQL and MySQL's history has no such version: it is listed as Redis state with no record on the next compare"),
                false));
        assertThat(text).contains("o-1: MySQL 没有它的记录：它留在死信列表中",
                "o-2: Redis 领先于 MySQL，而 MySQL 的历史中没有该版本：下次比对时它会列为“" + Messages.get("recon.category.REDIS_UNEXPLAINED") + "”");
        assertThat(text).doesNotContainPattern("\\b(?!Redis\\b|MySQL\\b)[a-z]{3,}");
        // A reason no repair gives (a store's own error) is shown as it came.
        assertThat(com.orderconsole.ui.common.RepairText.error("o-3: connection refused")).isEqualTo("o-3: connection refused");
    }

    @Test
    void englishIsAsTheRepairsSayIt() {
        String text = ReconciliationViewModel.planText(List.of(new Reconciliation.RepairStep("o-1", "MySQL → Redis", "PAID v2")));
        assertThat(text).isEqualTo("o-1: MySQL → Redis" + Messages.format("recon.plan.resulting", "PAID v2") + "\n");
    }
}

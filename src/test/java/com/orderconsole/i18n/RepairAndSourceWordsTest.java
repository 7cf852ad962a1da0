package com.orderconsole.i18n;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.app.StoryWords;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditSources;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.ui.audit.AuditViewModel;
import com.orderconsole.ui.common.Formats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Chinese user reads the audit page's repair rows, the sources of changes and the story of an order in Chinese, and
 * every time on the audit page as a local date-time: the repairs record English words and raw epoch milliseconds
 * (the durable record, read by the CLI and exports as stored), the console shows them through the bundles.
 */
class RepairAndSourceWordsTest {
    /** English words left in a Chinese text: letters other than the product names and the version mark. */
    private static final Pattern ENGLISH = Pattern.compile("\\b(?!Redis\\b|MySQL\\b|v\\d)[A-Za-z]{2,}");
    private static final long UPDATED = 1_511_380_740_000L;
    private static final long CREATED = 1_511_294_040_000L;

    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    private static AuditEvent repair(String orderId, String detail) {
        return new AuditEvent(AuditEvent.Kind.ACTION, 7, 1_765_000_000_000L, "root", "reconciliation", orderId, null, null,
                null, null, "REPAIR", "", detail, null, false);
    }

    @Test
    void aRepairRowOfTheAuditPageIsChinese() {
        Messages.use(Languages.ZH_CN);
        String what = AuditViewModel.what(repair("56ab0ef6726f49b711b84ce62e305c7c",
                "Redis state with no record: Redis restored from MySQL: was FINISHED v3, now WAIT_SHIP v3; dead letter 12 closed"));
        assertThat(what).isEqualTo("修复: Redis 状态无对应记录：已从 MySQL 恢复 Redis：原为 已完成 v3，现为 待发货 v3；死信 12 已关闭"
                .replace("Redis 状态无对应记录", Messages.get("recon.category.REDIS_UNEXPLAINED")));
        String counters = AuditViewModel.what(repair(null, "Live counters disagree: live counters recounted"));
        assertThat(counters).contains(Messages.get("recon.category.COUNTERS_DRIFT"), "已重新统计实时计数");
        assertThat(ENGLISH.matcher(what).find()).as(what).isFalse();
        assertThat(ENGLISH.matcher(counters).find()).as(counters).isFalse();
        String buckets = AuditViewModel.what(repair(null, "Missing in Redis: live counters of buckets 3, 7 recounted"));
        assertThat(buckets).contains("已重新统计分桶 3, 7 的实时计数");
        String created = AuditViewModel.what(repair("o-1", "Missing in MySQL: MySQL row created from Redis: PAID v2"));
        assertThat(created).contains("已按 Redis 创建 MySQL 记录：已支付 v2");
        assertThat(ENGLISH.matcher(buckets + created).find()).as(buckets + created).isFalse();
    }

    @Test
    void theAuditPageShowsLocalTimesNeverEpochMilliseconds() {
        String raw = "status=5 version=3 updateTime=" + UPDATED + " createTime=" + CREATED;
        String what = AuditViewModel.what(repair("o-1", "Malformed Redis record: Redis restored from MySQL: was a malformed record ("
                + "status 5 is not a status: " + raw + "), now WAIT_SHIP v3"));
        assertThat(what).doesNotContain(Long.toString(UPDATED)).doesNotContain(Long.toString(CREATED))
                .contains("updateTime=" + Formats.dateTime(UPDATED), "createTime=" + Formats.dateTime(CREATED));
        String queued = AuditViewModel.what(repair("o-2", "WAIT_PAY without queue entry: queued with payment deadline " + UPDATED + " (epoch ms)"));
        assertThat(queued).doesNotContain(Long.toString(UPDATED)).contains(Formats.dateTime(UPDATED));
        AuditEvent extend = new AuditEvent(AuditEvent.Kind.ACTION, 8, UPDATED, "root", "console", "o-3", null, null, null, null,
                "QUEUE_EXTEND", "", "payment deadline " + CREATED + " -> " + UPDATED + " (epoch ms)", null, false);
        assertThat(AuditViewModel.what(extend)).doesNotContain(Long.toString(UPDATED)).doesNotContain(Long.toString(CREATED))
                .contains(Formats.dateTime(CREATED), Formats.dateTime(UPDATED));
        AuditEvent removed = new AuditEvent(AuditEvent.Kind.ACTION, 9, UPDATED, "root", "console", "o-4", null, null, null, null,
                "QUEUE_REMOVE", "", "payment deadline " + java.time.Instant.ofEpochMilli(UPDATED) + " removed (epoch ms " + UPDATED + ")", null, false);
        assertThat(AuditViewModel.what(removed)).doesNotContain(Long.toString(UPDATED))
                .doesNotContain(java.time.Instant.ofEpochMilli(UPDATED).toString())
                .contains(Formats.dateTime(UPDATED));
        // English keeps its words and loses only the epoch milliseconds.
        assertThat(AuditViewModel.what(repair(null, "Live counters disagree: live counters recounted")))
                .isEqualTo("REPAIR: Live counters disagree: live counters recounted");
    }

    @Test
    void everySourceTheAuditOffersHasAChineseWord() {
        Messages.use(Languages.ZH_CN);
        for (String s : AuditSources.SHOWN) {
            assertThat(Messages.bundle().containsKey("source." + s)).as("source." + s).isTrue();
            assertThat(StoryWords.source(s)).as(s).doesNotContainPattern("[A-Za-z]{2,}");
        }
        assertThat(StoryWords.source("my-client")).as("a client's own source is shown as stored").isEqualTo("my-client");
        Messages.use(Locale.ENGLISH);
        for (String s : AuditSources.SHOWN) {
            assertThat(StoryWords.source(s)).as("English shows the stored name, which the filter takes").isEqualTo(s);
        }
    }

    @Test
    void theStoryNamesSourcesAndStatusesInChinese() {
        Messages.use(Languages.ZH_CN);
        HistoryEntry created = new HistoryEntry("o-1", null, OrderStatus.WAIT_PAY, 1, ResultCode.APPLIED, "import", "import", "", 1000, "k1");
        HistoryEntry cancelled = new HistoryEntry("o-1", OrderStatus.WAIT_PAY, OrderStatus.CANCELLED, 2, ResultCode.APPLIED, "import", "import", "", 1000, "k2");
        String first = StoryWords.step(new OrderStory.Step(created, null, 0, null, false, 1, 1, false));
        String second = StoryWords.step(new OrderStory.Step(cancelled, OrderStatus.WAIT_PAY, 0, created, false, 2, 2, false));
        assertThat(first).contains("导入", "待支付").doesNotContain("WAIT_PAY");
        assertThat(second).contains("导入", "已取消").doesNotContain("CANCELLED");
        // The actor is a name and stays as it is; the source is a word of the console's.
        assertThat(first.replaceFirst("import", "")).doesNotContain("import");
    }
}

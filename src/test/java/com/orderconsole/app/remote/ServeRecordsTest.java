package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.RawRedis;
import com.orderconsole.api.ServeFixture;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Serve's answers read back into the services' records equal what the in-process services give for the same stores: the
 * console shows the same values in remote mode as in local mode.
 */
class ServeRecordsTest {
    private final ServeFixture serve = new ServeFixture();
    private final Services local = serve.engine().services();
    private final Operator setup = new Operator("setup", Role.ADMIN);
    private final String token = ServeFixture.person("olga", Role.OPS);

    @AfterEach
    void close() {
        serve.close();
    }

    private void create(String id) {
        local.orders().create(setup, id, null, Duration.ofMinutes(30));
    }

    @Test
    void queueSummaryPageAndOneOrdersEntryReadAsTheServiceHasThem() throws Exception {
        create("q-1");
        create("q-2");
        create("q-3");
        local.transitions().transition(setup, TransitionRequest.of("q-3", OrderStatus.PAID, "test", "paid"));

        var summary = ServeRecords.queueSummary(serve.get(token, "/v1/cancel-queue", 200));
        var mine = local.queue().summary();
        assertThat(summary.depth()).isEqualTo(mine.depth()).isEqualTo(2);
        assertThat(summary.nextDueMs()).isEqualTo(mine.nextDueMs());
        assertThat(summary.sweeper().paused()).isFalse();

        var page = ServeRecords.queuePage(serve.get(token, "/v1/cancel-queue/entries?limit=1", 200));
        var minePage = local.queue().page(null, 1);
        assertThat(page.nextCursor()).isEqualTo(minePage.nextCursor()).isNotNull();
        assertThat(page.items()).extracting(QueueItem::orderId, QueueItem::expireAtMs, QueueItem::status, QueueItem::stale)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(minePage.items().get(0).orderId(), minePage.items().get(0).expireAtMs(),
                        OrderStatus.WAIT_PAY, false));

        var found = ServeRecords.queuePage(serve.get(token, "/v1/cancel-queue/entries?orderId=q-2", 200));
        assertThat(found.items()).extracting(QueueItem::orderId, QueueItem::expireAtMs)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("q-2", local.queue().find("q-2").orElseThrow().expireAtMs()));
        assertThat(ServeRecords.queuePage(serve.get(token, "/v1/cancel-queue/entries?orderId=q-3", 200)).items())
                .as("an order without an entry").isEmpty();
        assertThat(serve.get(token, "/v1/cancel-queue/entries?orderId=q%201", 400).path("error").path("message").asText())
                .contains("order id");
    }

    @Test
    void findingsWithTheirDetailKeysPlanAndRepairReadAsTheServiceHasThem() throws Exception {
        create("r-1");
        create("r-2");
        assertThat(local.follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("r-1"));
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("r-2")), "r-2");
        }
        String id = serve.post(token, "/v1/reconciliations", "{}", 202).path("id").asText();
        JsonNode[] run = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            run[0] = serve.get(token, "/v1/reconciliations/" + id, 200);
            return run[0].path("state").asText().equals("done");
        });
        Map<ReconCategory, List<ReconFinding>> findings = new java.util.EnumMap<>(ReconCategory.class);
        for (ReconCategory c : ReconCategory.values()) {
            List<ReconFinding> list = new ArrayList<>();
            serve.get(token, "/v1/reconciliations/" + id + "/findings?category=" + c.name(), 200).path("findings")
                    .forEach(f -> list.add(ServeRecords.reconFinding(f)));
            findings.put(c, list);
        }
        ReconReport remote = ServeRecords.reconReport(run[0], findings, false);
        ReconReport mine = local.reconciliation().run(null, ReconProgress.NONE, () -> false);
        assertThat(remote.counts()).isEqualTo(mine.counts());
        assertThat(remote.counts().get(ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);
        assertThat(remote.counts().get(ReconCategory.WAIT_PAY_WITHOUT_QUEUE)).isEqualTo(1);
        for (ReconCategory c : ReconCategory.values()) {
            assertThat(remote.findings(c)).as(c.name()).hasSameSizeAs(mine.findings(c));
            for (int i = 0; i < mine.findings(c).size(); i++) {
                ReconFinding a = remote.findings(c).get(i);
                ReconFinding b = mine.findings(c).get(i);
                assertThat(List.of(a.orderId(), String.valueOf(a.mysqlStatus()), a.mysqlVersion(), String.valueOf(a.redisStatus()), a.redisVersion(),
                        a.detail(), a.detailKey(), a.detailArgs().toString())).isEqualTo(List.of(b.orderId(), String.valueOf(b.mysqlStatus()),
                        b.mysqlVersion(), String.valueOf(b.redisStatus()), b.redisVersion(), b.detail(), b.detailKey(), b.detailArgs().toString()));
            }
        }
        assertThat(ServeRecords.repairPlan(serve.get(token, "/v1/reconciliations/" + id + "/repairs/MISSING_IN_REDIS", 200)))
                .isEqualTo(local.reconciliation().plan(mine, ReconCategory.MISSING_IN_REDIS));
        var repaired = ServeRecords.repairResult(serve.post(token, "/v1/reconciliations/" + id + "/repairs",
                "{\"category\": \"WAIT_PAY_WITHOUT_QUEUE\"}", 200));
        assertThat(repaired.category()).isEqualTo(ReconCategory.WAIT_PAY_WITHOUT_QUEUE);
        assertThat(List.of(repaired.attempted(), repaired.repaired(), repaired.failed())).containsExactly(1L, 1L, 0L);
        assertThat(serve.post(token, "/v1/reconciliations/" + id + "/cancel", "{}", 200).path("state").asText())
                .as("cancelling a finished run leaves it done").isEqualTo("done");
    }

    @Test
    void bulkPreviewBatchItemsAuditAndDeadLettersReadAsTheServiceHasThem() throws Exception {
        create("b-1");
        create("b-2");
        local.transitions().transition(setup, TransitionRequest.of("b-2", OrderStatus.PAID, "test", "paid"));
        BulkPreview preview = ServeRecords.bulkPreview(serve.post(token, "/v1/bulk-moves/previews",
                "{\"ids\": [\"b-1\", \"b-2\", \"b-9\"], \"to\": \"CANCELLED\"}", 200), BulkScope.of(List.of("b-1", "b-2", "b-9")));
        BulkPreview mine = local.bulk().preview(BulkScope.of(List.of("b-1", "b-2", "b-9")), OrderStatus.CANCELLED, false,
                com.orderconsole.service.bulk.BulkProgress.NONE, () -> false);
        assertThat(List.of(preview.matched(), preview.wouldApply(), preview.wouldReject(), preview.perTarget(), preview.sample(),
                preview.unknownIds(), preview.rulesVersion())).isEqualTo(List.of(mine.matched(), mine.wouldApply(), mine.wouldReject(),
                mine.perTarget(), mine.sample(), mine.unknownIds(), mine.rulesVersion()));

        String previewId = serve.post(token, "/v1/bulk-moves/previews", "{\"ids\": [\"b-1\", \"b-2\"], \"to\": \"CANCELLED\"}", 200)
                .path("id").asText();
        String run = serve.post(token, "/v1/bulk-moves", "{\"previewId\": \"" + previewId + "\", \"reason\": \"test batch\"}", 202)
                .path("id").asText();
        long[] batch = new long[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> (batch[0] = serve.get(token, "/v1/bulk-moves/" + run, 200).path("batchId").asLong()) > 0);
        BulkBatch b = ServeRecords.bulkBatch(serve.get(token, "/v1/bulk-batches/" + batch[0], 200));
        assertThat(b).isEqualTo(local.bulk().batch(batch[0]));
        List<BulkItem> items = new ArrayList<>();
        serve.get(token, "/v1/bulk-batches/" + batch[0] + "/items", 200).path("items").forEach(i -> items.add(ServeRecords.bulkItem(i, batch[0])));
        assertThat(items).isEqualTo(local.bulk().items(batch[0], null, null, 100)).hasSize(2);

        assertThat(ServeRecords.auditPage(serve.get(token, "/v1/audit?limit=5", 200)))
                .isEqualTo(local.audit().page(AuditFilter.all(), null, 5));

        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket("b-1")), Map.of("o", "b-1", "f", "7", "t", "2", "v", "9", "c", "1",
                    "a", "x", "s", "t", "r", "", "ts", "1"));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> local.deadLetters().countOpen() == 1);
        JsonNode letters = serve.get(token, "/v1/dead-letters", 200);
        assertThat(letters.path("open").asLong()).isEqualTo(1);
        assertThat(ServeRecords.deadLetter(letters.path("letters").get(0))).isEqualTo(local.deadLetters().open(10).get(0));
    }
}

package com.orderconsole.service.importer;

import com.orderconsole.FreshEngine;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderSummary;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class OlistImporterTest {
    private static final String HEADER = "order_id,customer_id,order_status,order_purchase_timestamp,order_approved_at,"
            + "order_delivered_carrier_date,order_delivered_customer_date,order_estimated_delivery_date";
    private static final ZoneId SAO_PAULO = ZoneId.of("America/Sao_Paulo");

    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator ops = new Operator("olivia", Role.OPS);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    private static long ms(int y, int mo, int d, int h, int mi, int sec) {
        return LocalDateTime.of(y, mo, d, h, mi, sec).atZone(SAO_PAULO).toInstant().toEpochMilli();
    }

    private ImportReport importText(String... lines) {
        return s.importer().importCsv(ops, new StringReader(String.join("\n", lines) + "\n"), "test.csv", ImportProgress.NONE);
    }

    @Test
    void publishedFormatBuildsStateAndHistoryFromTheTimestamps() {
        ImportReport r = importText(HEADER,
                "d1,c1,delivered,2017-10-02 10:56:33,2017-10-02 11:07:15,2017-10-04 19:55:00,2017-10-10 21:25:13,2017-10-18 00:00:00",
                "s1,c2,shipped,2018-06-04 16:44:48,2018-06-05 04:31:18,2018-06-05 14:32:00,,2018-06-28 00:00:00",
                "i1,c3,invoiced,2017-04-11 12:22:08,2017-04-13 13:25:17,,,2017-05-09 00:00:00",
                "a1,,approved,2017-02-06 20:18:17,2017-02-06 20:30:19,,,2017-03-01 00:00:00");

        assertThat(r.rowsRead()).isEqualTo(4);
        assertThat(r.imported()).isEqualTo(4);
        assertThat(r.skippedDuplicates()).isZero();
        assertThat(r.problems()).isEmpty();

        OrderDetails d = s.orders().lookup("d1");
        assertThat(d.rebuilt()).as("the import created the Redis state itself").isFalse();
        assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.FINISHED);
        assertThat(d.summary().redisVersion()).isEqualTo(5);
        assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.FINISHED);
        assertThat(d.summary().mysqlVersion()).isEqualTo(5);
        assertThat(d.summary().customerId()).isEqualTo("c1");
        assertThat(d.summary().createdAtMs()).isEqualTo(ms(2017, 10, 2, 10, 56, 33));
        assertThat(d.summary().statusSinceMs()).isEqualTo(ms(2017, 10, 10, 21, 25, 13));
        assertThat(d.history()).extracting(HistoryEntry::from, HistoryEntry::to, HistoryEntry::version, HistoryEntry::atMs,
                HistoryEntry::eventKey).containsExactly(
                tuple(null, OrderStatus.WAIT_PAY, 1L, ms(2017, 10, 2, 10, 56, 33), "import:d1:1"),
                tuple(OrderStatus.WAIT_PAY, OrderStatus.PAID, 2L, ms(2017, 10, 2, 11, 7, 15), "import:d1:2"),
                tuple(OrderStatus.PAID, OrderStatus.WAIT_SHIP, 3L, ms(2017, 10, 2, 11, 7, 15), "import:d1:3"),
                tuple(OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, 4L, ms(2017, 10, 4, 19, 55, 0), "import:d1:4"),
                tuple(OrderStatus.SHIPPED, OrderStatus.FINISHED, 5L, ms(2017, 10, 10, 21, 25, 13), "import:d1:5"));
        assertThat(d.history()).allSatisfy(h -> {
            assertThat(h.code()).isEqualTo(ResultCode.APPLIED);
            assertThat(h.actor()).as("who imported, not a made-up name (issue 10.3)").isEqualTo("olivia");
            assertThat(h.source()).isEqualTo("import");
        });
        assertThat(d.history().get(0).reason()).contains("test.csv").contains("olivia");

        assertThat(s.orders().lookup("s1").summary()).extracting(OrderSummary::redisStatus, OrderSummary::redisVersion)
                .containsExactly(OrderStatus.SHIPPED, 4L);
        OrderDetails inv = s.orders().lookup("i1");
        assertThat(inv.summary()).extracting(OrderSummary::redisStatus, OrderSummary::redisVersion)
                .containsExactly(OrderStatus.WAIT_SHIP, 3L);
        assertThat(inv.legalTargets()).as("imported orders continue under the rules").containsExactly(OrderStatus.SHIPPED);
        OrderDetails ap = s.orders().lookup("a1");
        assertThat(ap.summary()).extracting(OrderSummary::redisStatus, OrderSummary::redisVersion, OrderSummary::customerId)
                .containsExactly(OrderStatus.PAID, 2L, null);
        assertThat(ap.queueExpiryMs()).as("paid orders have no payment deadline").isNull();
    }

    @Test
    void resavedFormatGivesTheSameInstantsAsThePublishedOne() {
        ImportReport r = importText(HEADER,
                "d2,c1,delivered,10/2/2017 10:56,10/2/2017 11:07,10/4/2017 19:55,10/10/2017 21:25,10/18/2017 0:00",
                "x2,c2,canceled,8/4/2018 14:29,8/7/2018 4:10,,,8/14/2018 0:00",
                "u2,c3,unavailable,11/16/2017 15:09,,,,12/5/2017 0:00");
        assertThat(r.problems()).isEmpty();
        assertThat(r.imported()).isEqualTo(3);

        OrderDetails d = s.orders().lookup("d2");
        assertThat(d.history()).extracting(HistoryEntry::to, HistoryEntry::atMs).containsExactly(
                tuple(OrderStatus.WAIT_PAY, ms(2017, 10, 2, 10, 56, 0)),
                tuple(OrderStatus.PAID, ms(2017, 10, 2, 11, 7, 0)),
                tuple(OrderStatus.WAIT_SHIP, ms(2017, 10, 2, 11, 7, 0)),
                tuple(OrderStatus.SHIPPED, ms(2017, 10, 4, 19, 55, 0)),
                tuple(OrderStatus.FINISHED, ms(2017, 10, 10, 21, 25, 0)));

        // Approved, then cancelled: the history keeps the payment; the cancel is dated at the latest time.
        OrderDetails x = s.orders().lookup("x2");
        assertThat(x.summary()).extracting(OrderSummary::redisStatus, OrderSummary::redisVersion)
                .containsExactly(OrderStatus.CANCELLED, 3L);
        assertThat(x.history()).extracting(HistoryEntry::to, HistoryEntry::atMs).containsExactly(
                tuple(OrderStatus.WAIT_PAY, ms(2018, 8, 4, 14, 29, 0)),
                tuple(OrderStatus.PAID, ms(2018, 8, 7, 4, 10, 0)),
                tuple(OrderStatus.CANCELLED, ms(2018, 8, 7, 4, 10, 0)));
        assertThat(x.legalTargets()).isEmpty();

        OrderDetails u = s.orders().lookup("u2");
        assertThat(u.history()).extracting(HistoryEntry::from, HistoryEntry::to)
                .containsExactly(tuple(null, OrderStatus.WAIT_PAY), tuple(OrderStatus.WAIT_PAY, OrderStatus.CANCELLED));
    }

    @Test
    void missingOrBackwardTimestampsTakeTheTimeOfTheStepBefore() {
        importText(HEADER,
                "m1,c1,delivered,2017-10-02 10:56:33,2017-10-02 11:07:15,2017-10-04 19:55:00,,",
                "b1,c1,shipped,2017-10-02 10:56:33,2017-10-03 08:00:00,2017-10-01 09:00:00,,");
        List<HistoryEntry> m = s.orders().lookup("m1").history();
        assertThat(m.get(4).to()).isEqualTo(OrderStatus.FINISHED);
        assertThat(m.get(4).atMs()).isEqualTo(ms(2017, 10, 4, 19, 55, 0));
        assertThat(m.get(4).reason()).contains("order_delivered_customer_date missing");

        List<HistoryEntry> b = s.orders().lookup("b1").history();
        assertThat(b.get(3).to()).isEqualTo(OrderStatus.SHIPPED);
        assertThat(b.get(3).atMs()).as("never earlier than the payment").isEqualTo(ms(2017, 10, 3, 8, 0, 0));
        assertThat(b.get(3).reason()).contains("earlier than the step before");
    }

    @Test
    void badRowsAreReportedWithTheirLineAndSkippedWhileTheRestImports() {
        ImportReport r = importText(HEADER,                                                            // line 1
                "ok1,c1,delivered,2017-10-02 10:56:33,2017-10-02 11:07:15,2017-10-04 19:55:00,2017-10-10 21:25:13,", // 2
                ",c1,delivered,2017-10-02 10:56:33,,,,",                                              // 3 missing id
                "bad id!,c1,delivered,2017-10-02 10:56:33,,,,",                                       // 4 invalid id
                "ok2,c1,lost_in_space,2017-10-02 10:56:33,,,,",                                       // 5 unknown status
                "ok3,c1,shipped,2017-02-30 10:00:00,,,,",                                             // 6 no such date
                "ok4,c1,shipped,2017-10-02 10:56:33,yesterday,,,",                                    // 7 bad approved date
                "ok5,c1,shipped,,2017-10-02 10:56:33,,,",                                             // 8 no purchase date
                "ok6,c1,shipped,2017-10-02 10:56:33,,",                                               // 9 too few columns
                "\"ok7\",c1,\"shipped\",\"2017-10-02 10:56:33\",\"2017-10-02\n11:00:00\",,,",          // 10-11 bad date spanning lines
                "ok1,c9,shipped,2017-10-02 10:56:33,,,,",                                             // 12 duplicate of line 2
                "",                                                                                   // 13 blank, ignored
                "ok8,c$1,shipped,2017-10-02 10:56:33,,,,",                                            // 14 invalid customer
                "ok9,c1,,2017-10-02 10:56:33,,,,",                                                    // 15 empty status
                "ok10,c1,canceled,2017-10-02 10:56:33,,,,");                                          // 16 fine
        assertThat(r.rowsRead()).as("the blank line is no row").isEqualTo(13);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(r.problems()).extracting(ImportProblem::line).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 12L, 14L, 15L);
        List<String> reasons = r.problems().stream().map(ImportProblem::reason).toList();
        assertThat(reasons.get(0)).isEqualTo("order_id is empty");
        assertThat(reasons.get(1)).startsWith("order_id 'bad id!' is invalid");
        assertThat(reasons.get(2)).startsWith("unknown order_status 'lost_in_space'");
        assertThat(reasons.get(3)).startsWith("order_purchase_timestamp '2017-02-30 10:00:00' is not a date");
        assertThat(reasons.get(4)).startsWith("order_approved_at 'yesterday' is not a date");
        assertThat(reasons.get(5)).isEqualTo("order_purchase_timestamp is empty");
        assertThat(reasons.get(6)).isEqualTo("expected 8 columns, found 6");
        assertThat(reasons.get(7)).startsWith("order_approved_at '2017-10-02\\u000a11:00:00' is not a date");
        assertThat(reasons.get(8)).isEqualTo("duplicate order_id ok1 (first on line 2)");
        assertThat(reasons.get(9)).startsWith("customer_id 'c$1' is invalid");
        assertThat(reasons.get(10)).isEqualTo("order_status is empty");

        assertThat(s.orders().lookup("ok1").summary().customerId()).as("the first of two duplicates wins").isEqualTo("c1");
        assertThat(s.orders().lookup("ok10").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(s.orders().page(OrderQuery.all(), null, 100).rows()).extracting(OrderSummary::orderId)
                .containsExactlyInAnyOrder("ok1", "ok10");
    }

    @Test
    void lineNumbersCountCrlfAndALastLineWithoutBreak() {
        String text = HEADER + "\r\nz1,c1,shipped,2017-10-02 10:56:33,,,,\r\nz2,c1,nope,2017-10-02 10:56:33,,,,";
        ImportReport r = s.importer().importCsv(ops, new StringReader(text), "crlf.csv", ImportProgress.NONE);
        assertThat(r.problems()).extracting(ImportProblem::line).containsExactly(3L);
        assertThat(r.imported()).isEqualTo(1);
    }

    @Test
    void aRowThatIsNotUtf8IsSkippedWithItsLineAndEveryOtherRowImports(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("mixed.csv");
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.write((HEADER + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (int i = 0; i < 3000; i++) {
            bytes.write(String.format("LT-%04d,c1,delivered,2017-10-02 10:56:33,,,,%n", i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            if (i == 1500) {
                // "São Paulo" in Latin-1: the 0xE3 byte is not UTF-8.
                bytes.write("LT-LATIN,c1,delivered,2017-10-02 10:56:33,,,S\u00e3o Paulo,\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        java.nio.file.Files.write(csv, bytes.toByteArray());
        ImportReport r = s.importer().importCsv(ops, csv, ImportProgress.NONE);
        assertThat(r.imported()).isEqualTo(3000);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(1503);
            assertThat(p.reason()).contains("not valid UTF-8");
        });
        assertThat(s.orders().lookup("LT-2999").summary().mysqlStatus()).isEqualTo(OrderStatus.FINISHED);
    }

    @Test
    void reimportingTheSameFileChangesNothing(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("orders.csv");
        Files.writeString(csv, String.join("\n", HEADER,
                "r1,c1,delivered,2017-10-02 10:56:33,2017-10-02 11:07:15,2017-10-04 19:55:00,2017-10-10 21:25:13,",
                "r2,c2,created,2017-10-02 10:56:33,,,,",
                "r3,c3,nope,2017-10-02 10:56:33,,,,") + "\n", StandardCharsets.UTF_8);
        ImportReport first = s.importer().importCsv(ops, csv, ImportProgress.NONE);
        assertThat(first.imported()).isEqualTo(2);
        OrderDetails before = s.orders().lookup("r1");

        ImportReport again = s.importer().importCsv(ops, csv, ImportProgress.NONE);
        assertThat(again.rowsRead()).isEqualTo(3);
        assertThat(again.imported()).isZero();
        assertThat(again.skippedDuplicates()).isEqualTo(2);
        assertThat(again.problems()).extracting(ImportProblem::line).containsExactly(4L);
        OrderDetails after = s.orders().lookup("r1");
        assertThat(after.history()).isEqualTo(before.history());
        assertThat(after.summary()).isEqualTo(before.summary());
    }

    @Test
    void anOrderThatExistsAlreadyIsLeftAsItIs() {
        s.orders().create(ops, "live-1", null, Duration.ofMinutes(30));
        ImportReport r = importText(HEADER, "live-1,c1,delivered,2017-10-02 10:56:33,,,,");
        assertThat(r.imported()).isZero();
        assertThat(r.skippedDuplicates()).isEqualTo(1);
        OrderDetails d = s.orders().lookup("live-1");
        assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(d.history()).hasSize(1);
        assertThat(d.history().get(0).source()).isEqualTo("create");
    }

    @Test
    void unpaidOlistOrdersAreDueAtPurchasePlusTimeoutSoTheNextSweepCancelsThem() {
        importText(HEADER, "w1,c1,created,2018-01-10 11:33:00,,,,");
        OrderDetails d = s.orders().lookup("w1");
        long deadline = ms(2018, 1, 10, 11, 33, 0) + s.paymentTimeout().toMillis();
        assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(d.summary().expireAtMs()).isEqualTo(deadline);
        assertThat(d.queueExpiryMs()).isEqualTo(deadline);

        assertThat(s.sweeper().tick()).isEqualTo(1);
        assertThat(s.orders().lookup("w1").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aHeaderWithoutARequiredColumnImportsNothing() {
        assertThatThrownBy(() -> importText("order_id,customer_id,order_purchase_timestamp", "h1,c1,2017-10-02 10:56:33"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lacks column(s) order_status, order_approved_at");
        assertThat(s.orders().page(OrderQuery.all(), null, 10).rows()).isEmpty();
    }

    @Test
    void aByteOrderMarkAndOtherColumnOrdersAreAccepted() {
        ImportReport r = importText("\uFEFForder_status,order_id,customer_id,order_purchase_timestamp,order_approved_at,"
                        + "order_delivered_carrier_date,order_delivered_customer_date,order_estimated_delivery_date",
                "shipped,bom1,c1,2017-10-02 10:56:33,2017-10-02 11:07:15,2017-10-04 19:55:00,,");
        assertThat(r.problems()).isEmpty();
        assertThat(s.orders().lookup("bom1").summary().redisStatus()).isEqualTo(OrderStatus.SHIPPED);
    }

    @Test
    void supportMayNotImport() {
        Operator support = new Operator("sam", Role.SUPPORT);
        assertThatThrownBy(() -> s.importer().importCsv(support, new StringReader(HEADER), "x.csv", ImportProgress.NONE))
                .isInstanceOf(PermissionDeniedException.class);
    }

    @Test
    void theBundledSampleImportsOnceOnAnEmptyStoreWithProgress() {
        List<long[]> calls = new ArrayList<>();
        Optional<ImportReport> report = s.importer().importBundledSampleIfEmpty((done, total) -> calls.add(new long[]{done, total}));
        assertThat(report).isPresent();
        ImportReport r = report.get();
        System.out.printf("bundled sample: %d rows read, %d imported in %d ms%n", r.rowsRead(), r.imported(), r.millis());
        assertThat(r.rowsRead()).isEqualTo(4998);
        assertThat(r.imported()).isEqualTo(4998);
        assertThat(r.problems()).isEmpty();
        assertThat(calls).hasSizeGreaterThan(5);
        assertThat(calls).allSatisfy(c -> assertThat(c[1]).isEqualTo(4998));
        assertThat(calls.get(calls.size() - 1)).containsExactly(4998, 4998);

        // Counts of the sample per Olist status, mapped: delivered 4856, shipped 61, invoiced 12 + processing 20,
        // canceled 25 + unavailable 24.
        Map<OrderStatus, Integer> counts = new EnumMap<>(OrderStatus.class);
        String cursor = null;
        do {
            OrderPage page = s.orders().page(OrderQuery.all(), cursor, 1000);
            page.rows().forEach(o -> {
                assertThat(o.disagrees()).isFalse();
                counts.merge(o.redisStatus(), 1, Integer::sum);
            });
            cursor = page.nextCursor();
        } while (cursor != null);
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(OrderStatus.FINISHED, 4856, OrderStatus.SHIPPED, 61,
                OrderStatus.WAIT_SHIP, 32, OrderStatus.CANCELLED, 49));

        assertThat(s.importer().importBundledSampleIfEmpty(ImportProgress.NONE)).as("not again once orders exist").isEmpty();
    }
}

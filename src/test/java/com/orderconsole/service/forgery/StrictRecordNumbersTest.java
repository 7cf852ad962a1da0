package com.orderconsole.service.forgery;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RecordNumber;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Services;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25.3: the status and version of an order's Redis record are read by one grammar on each side (transition.lua,
 * {@link RecordNumber}), and both sides call the same records malformed: a table of values Lua's tonumber or Java's
 * parseLong took, each put into a real record and then moved by the script and read by reconciliation.
 */
class StrictRecordNumbersTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);

    /** Statuses that look like 2 (PAID) to a lenient reader, and others no reader should take. */
    static final List<String> BAD_STATUSES = List.of(" 2", "2 ", "\t2", "2\n", "+2", "02", "0x2", "2e0", "2.0", "2.",
            ".2e1", "0b10", "２", "2a", "", "x", "0", "7", "22", "-2", "nan", "inf");
    /** Versions: exponent, hex, sign, spaces, leading zeros, fractions, separators, too many digits. */
    static final List<String> BAD_VERSIONS = List.of("1e3", "0x2", "+1", "-1", " 1", "1 ", "01", "00", "1.0", "1.", "1e0",
            "0x1p4", "１", "1_000", "1,000", "inf", "nan", "9999999999999999", "", "\n1", "0b1", "1L");

    @Test
    void theTablesAreLongEnough() {
        assertThat(BAD_STATUSES).hasSizeGreaterThanOrEqualTo(20);
        assertThat(BAD_VERSIONS).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void theJavaGrammarRefusesEveryMalformedValueAndReadsTheCanonicalOnes() {
        for (String v : BAD_VERSIONS) {
            assertThat(RecordNumber.parse(v)).as("'%s'", v).isEqualTo(-1);
        }
        for (String v : BAD_STATUSES) {
            if (!v.equals("0") && !v.equals("7") && !v.equals("22")) {
                assertThat(RecordNumber.parse(v)).as("'%s'", v).isEqualTo(-1);
            }
        }
        assertThat(RecordNumber.parse("0")).isZero();
        assertThat(RecordNumber.parse("7")).isEqualTo(7);
        assertThat(RecordNumber.parse("999999999999999")).isEqualTo(999_999_999_999_999L);
        assertThat(RecordNumber.parse(null)).isEqualTo(-1);
    }

    @Test
    void aMalformedStatusIsRefusedByTheScriptAndCalledMalformedByReconciliation() {
        agreeOn("status", BAD_STATUSES, "s-");
    }

    @Test
    void aMalformedVersionIsRefusedByTheScriptAndCalledMalformedByReconciliation() {
        agreeOn("version", BAD_VERSIONS, "v-");
    }

    /** The case: a payment on a record with status ' 2' is not "already PAID", it is a malformed record. */
    @Test
    void aPaymentOnAStatusWithASpaceIsNotAlreadyPaid() {
        Services s = engine.services();
        s.orders().create(support, "sp-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("sp-1"), "status", " 2");
        }
        TransitionResult r = s.transitions().transition(support, TransitionRequest.of("sp-1", OrderStatus.PAID, "t", "payment"));
        assertThat(r.code()).isEqualTo(ResultCode.MALFORMED);
    }

    @Test
    void canonicalRecordsStillMove() {
        Services s = engine.services();
        s.orders().create(support, "ok-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("ok-1"), "version", "0");
        }
        TransitionResult r = s.transitions().transition(support, TransitionRequest.of("ok-1", OrderStatus.PAID, "t", ""));
        assertThat(r.code()).isEqualTo(ResultCode.APPLIED);
        assertThat(r.version()).isEqualTo(1);
    }

    private void agreeOn(String field, List<String> values, String prefix) {
        Services s = engine.services();
        List<String> ids = new ArrayList<>();
        try (RawRedis raw = new RawRedis()) {
            for (int i = 0; i < values.size(); i++) {
                String id = prefix + i;
                s.orders().create(support, id, null, Duration.ofMinutes(30));
                raw.cmd().hset(RedisKeys.order(id), field, values.get(i));
                ids.add(id);
            }
            for (int i = 0; i < values.size(); i++) {
                String id = ids.get(i);
                int b = RedisKeys.bucket(id);
                long entries = raw.cmd().xlen(RedisKeys.outbox(b));
                TransitionResult r = s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.PAID, "t", ""));
                assertThat(r.code()).as("the script on %s '%s'", field, values.get(i)).isEqualTo(ResultCode.MALFORMED);
                assertThat(raw.cmd().xlen(RedisKeys.outbox(b))).as("no outbox entry for %s '%s'", field, values.get(i)).isEqualTo(entries);
                Map<String, String> h = raw.cmd().hgetall(RedisKeys.order(id));
                assertThat(h.get(field)).as("the record is left as it was").isEqualTo(values.get(i));
            }
        }
        ReconReport report = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        assertThat(report.findings(ReconCategory.MALFORMED_IN_REDIS)).extracting(ReconFinding::orderId)
                .as("reconciliation (the Java reader) calls the same records malformed").containsExactlyInAnyOrderElementsOf(ids);
    }
}

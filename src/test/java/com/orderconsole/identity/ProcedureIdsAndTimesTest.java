package com.orderconsole.identity;

import com.orderconsole.Slow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every procedure takes only well-formed ids (no final line break, no leading or trailing space, no NUL), finds orders
 * byte for byte although the id column pads trailing spaces, and takes only the times and sources a front end gives.
 * Called as a plain client would, signed in as sam (support), olga (ops), ada (admin), fred (serve's account), on the
 * MariaDB with grant tables. A refused call leaves nothing behind.
 */
@Slow
class ProcedureIdsAndTimesTest {
    private static final int REFUSED_IN_WORDS = 1644;
    private static final long DAY = 24L * 3600 * 1000;
    private static final List<String> MALFORMED = List.of("NL-2\n", "TW-1 ", " TW-1", "CR-1\r", "NUL-1\u0000");

    @BeforeEach
    void empty() {
        AccessControlledDb.reset();
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private static String order(String id, long created, Long expire) {
        return "[[" + json(id) + ",null,1,1," + created + "," + created + "," + expire + "]]";
    }

    private static String creationRow(String id, String source, long at) {
        return "[[" + json(id) + ",null,1,1,1," + json(source) + ",\"\"," + at + "]]";
    }

    private static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.append('"').toString();
    }

    private static void create(String id) throws SQLException {
        long t = now();
        ok("sam", "CALL order_console_create_orders(?, ?)", order(id, t, t + 60_000), creationRow(id, "create", t));
    }

    @Test
    void creationRefusesEveryMalformedIdAndATwinUpToTrailingSpaces() throws Exception {
        long t = now();
        for (String bad : MALFORMED) {
            refused("sam", "CALL order_console_create_orders(?, ?)", order(bad, t, t + 60_000), creationRow(bad, "create", t));
            refused("olga", "CALL order_console_import_orders(?, ?)", order(bad, t - DAY, null), creationRow(bad, "import", t - DAY));
            refused("ada", "CALL order_console_copy_order(?, ?)", order(bad, t, null), creationRow(bad, "repair", t));
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isZero();
        // A twin stored by hand (as before these checks): 'TW-1' would write history for a row the padded key refuses.
        AccessControlledDb.root(st -> st.execute("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms) "
                + "VALUES ('TW-1 ', 1, 1, 1, 1)"));
        refused("sam", "CALL order_console_create_orders(?, ?)", order("TW-1", t, t + 60_000), creationRow("TW-1", "create", t));
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history")).isZero();
        create("NL-2");
        assertThat(rows("SELECT CONCAT('[', order_id, ']') FROM orders ORDER BY order_id")).containsExactly("[NL-2]", "[TW-1 ]");
    }

    @Test
    void markLoadedMarksOnlyTheExactIdAndABadIdStopsNothing() throws Exception {
        create("TW-1");
        create("OK-1");
        ok("sam", "CALL order_console_mark_loaded(?)", "[\"TW-1 \", \"NL-2\\n\"]");
        assertThat(rows("SELECT CONCAT(order_id, redis_ready) FROM orders ORDER BY order_id")).containsExactly("OK-10", "TW-10");
        ok("sam", "CALL order_console_mark_loaded(?)", "[\"TW-1 \", \"OK-1\"]");
        assertThat(rows("SELECT CONCAT(order_id, redis_ready) FROM orders ORDER BY order_id")).containsExactly("OK-11", "TW-10");
    }

    @Test
    void setExpiryFollowHistoryAndTheAuditRowsTakeOnlyWellFormedIdsByteForByte() throws Exception {
        create("E-1");
        long t = now();
        for (String bad : MALFORMED) {
            refused("olga", "CALL order_console_set_expiry(?, " + (t + DAY) + ", 'cli', '', '')", bad);
            refused("olga", "CALL order_console_follow_history(?, 2)", bad);
            refused("olga", "CALL order_console_record_action('cli', 'REPAIR', ?, '', '')", bad.replace("E-1", "x"));
            refused("ada", "CALL order_console_record_override('cli', ?, 'late payment', '')", bad);
        }
        refused("olga", "CALL order_console_set_expiry('E-1 ', " + (t + DAY) + ", 'cli', '', '')");
        // A twin stored by hand is not 'E-2'.
        AccessControlledDb.root(st -> st.execute("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms) "
                + "VALUES ('E-2 ', 1, 1, 1, 1)"));
        refused("olga", "CALL order_console_set_expiry('E-2', " + (t + DAY) + ", 'cli', '', '')");
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders WHERE expire_at_ms IS NOT NULL AND order_id <> 'E-1'")).isZero();
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log")).isZero();
        ok("olga", "CALL order_console_record_action('cli', 'REPAIR', NULL, '', '')");
        ok("olga", "CALL order_console_set_expiry('E-1', " + (t + DAY) + ", 'cli', '', '')");
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log")).isEqualTo(2);
    }

    @Test
    void supportCreatesOnlyAtTheServersClockWithADeadlineWithinAYearFromItsOwnSources() throws Exception {
        long t = now();
        String create = "CALL order_console_create_orders(?, ?)";
        refused("sam", create, order("T-1", 1, null), creationRow("T-1", "create", 1));                       // 1970
        refused("sam", create, order("T-1", t - 3_600_000, t), creationRow("T-1", "create", t - 3_600_000)); // an hour back
        refused("sam", create, order("T-1", t + 3_600_000, null), creationRow("T-1", "create", t + 3_600_000));
        refused("sam", create, order("T-1", -5, null), creationRow("T-1", "create", -5));
        refused("sam", create, order("T-1", t, t + 100 * 365 * DAY), creationRow("T-1", "create", t));       // 100 years
        refused("sam", create, order("T-1", t, t - 1), creationRow("T-1", "create", t));                     // due before created
        refused("sam", create, order("T-1", t, -1L), creationRow("T-1", "create", t));
        refused("sam", create, order("T-1", t, t + DAY), creationRow("T-1", "create", 5));                   // row dated elsewhere
        for (String source : List.of("import", "api", "repair", "bulk")) {
            refused("sam", create, order("T-1", t, t + DAY), creationRow("T-1", source, t));
        }
        refused("sam", create, "[[\"T-1\",\"c 1\",1,1," + t + "," + t + ",null]]", creationRow("T-1", "create", t));
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isZero();
        ok("sam", create, order("T-1", t, t + 365 * DAY), creationRow("T-1", "create", t));
        ok("sam", create, order("T-2", t, null), creationRow("T-2", "simulator", t));
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isEqualTo(2);
    }

    @Test
    void anImportCarriesNoFutureAndNoNegativeTimesAndOnlyTheImportSource() throws Exception {
        long t = now();
        String imp = "CALL order_console_import_orders(?, ?)";
        refused("olga", imp, order("I-1", -1, null), creationRow("I-1", "import", -1));
        refused("olga", imp, order("I-1", t + DAY, null), creationRow("I-1", "import", t + DAY));
        refused("olga", imp, order("I-1", t - DAY, t + 100 * 365 * DAY), creationRow("I-1", "import", t - DAY));
        refused("olga", imp, order("I-1", t - DAY, null), creationRow("I-1", "create", t - DAY));
        refused("olga", imp, order("I-1", t - DAY, null), creationRow("I-1", "api", t - DAY));
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isZero();
        ok("olga", imp, order("I-1", 1_500_000_000_000L, 1_500_000_100_000L), creationRow("I-1", "import", 1_500_000_000_000L));
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isEqualTo(1);
    }

    @Test
    void aDeadlineSetByHandIsAfter1970AndWithinAYear() throws Exception {
        create("D-1");
        long t = now();
        for (long bad : new long[]{-1, 0, t + 100 * 365 * DAY, t + 366 * DAY}) {
            refused("olga", "CALL order_console_set_expiry('D-1', " + bad + ", 'cli', '', '')");
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log")).isZero();
        ok("olga", "CALL order_console_set_expiry('D-1', " + (t + 364 * DAY) + ", 'cli', '', '')");
    }

    @Test
    void theApisCreationTakesWellFormedIdsAndTheServersTime() throws Exception {
        AccessControlledDb.root(st -> st.execute("INSERT INTO api_client (name, role, token_sha256, added_at_ms, added_by) "
                + "VALUES ('shop', 'support', REPEAT('a', 64), 1, 'root')"));
        long t = now();
        String call = "CALL order_console_api_create_order('shop', ?, NULL, ?, ?, ?)";
        for (String bad : MALFORMED) {
            refusedApi(call, bad, t, t + DAY);
        }
        refusedApi(call, "A-1", 1, 2);
        refusedApi(call, "A-1", t, t + 100 * 365 * DAY);
        refusedApi(call, "A-1", t, -1);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isZero();
        try (Connection c = AccessControlledDb.connect(AccessControlledDb.FOLLOWER); PreparedStatement ps = c.prepareStatement(call)) {
            ps.setString(1, "A-1");
            ps.setLong(2, t);
            ps.setLong(3, t + DAY);
            ps.setString(4, "k-A-1");
            ps.execute();
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isEqualTo(1);
    }

    private static void refusedApi(String call, String id, long created, long expire) {
        assertThatThrownBy(() -> {
            try (Connection c = AccessControlledDb.connect(AccessControlledDb.FOLLOWER); PreparedStatement ps = c.prepareStatement(call)) {
                ps.setString(1, id);
                ps.setLong(2, created);
                ps.setLong(3, expire);
                ps.setString(4, "k-" + id.strip());
                ps.execute();
            }
        }).as("%s %d %d", id, created, expire)
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(REFUSED_IN_WORDS));
    }

    private static void ok(String account, String sql, String... params) throws SQLException {
        try (Connection c = AccessControlledDb.connect(account); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            ps.execute();
        }
    }

    private static void refused(String account, String sql, String... params) {
        assertThatThrownBy(() -> ok(account, sql, params)).as("%s: %s %s", account, sql, List.of(params))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).as(e.getMessage())
                        .isEqualTo(REFUSED_IN_WORDS));
    }

    private static List<String> rows(String sql) {
        List<String> out = new ArrayList<>();
        AccessControlledDb.root(st -> {
            try (ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        });
        return out;
    }
}

package com.orderconsole.store;

import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The follower's multi-row version guard ({@link OrderStore#applyAllIfNewer}) against MariaDB: each row moves
 * only over an older version, ids are matched exactly (case-sensitive, whatever characters they hold), ids
 * MySQL does not hold stay absent, and more rows than one statement takes are all applied.
 */
class ApplyAllIfNewerTest {

    @Test
    void movesOnlyOlderVersionsMatchesIdsExactlyAndSpansStatements() {
        // The tables exist once a connect has migrated the schema: first in a JVM, this test must not rely on another's.
        Database.connect(TestServers.mariaDb().jdbcUrl(), "root", "", Duration.ofSeconds(5)).close();
        TestServers.reset();
        RawSql.update("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms) VALUES "
                + "('aa-1', 1, 1, 0, 0), ('AA-1', 1, 1, 0, 0), ('newer', 3, 9, 0, 0), ('q\"uo\\\\te', 1, 1, 0, 0)");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 1_234; i++) {
            many.append(i == 0 ? "" : ",").append("('bulk-").append(i).append("', 1, 1, 0, 0)");
        }
        RawSql.update("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms) VALUES " + many);
        List<OrderStore.Apply> rows = new ArrayList<>(List.of(
                new OrderStore.Apply("aa-1", 2, 2, 1_764_577_000_123L),
                new OrderStore.Apply("newer", 2, 2, 5),
                new OrderStore.Apply("q\"uo\\te", 6, 2, 7),
                new OrderStore.Apply("absent", 2, 2, 5)));
        for (int i = 0; i < 1_234; i++) {
            rows.add(new OrderStore.Apply("bulk-" + i, 2, 2, 11));
        }
        try (Database db = Database.connect(TestServers.mariaDb().jdbcUrl(), "root", "", Duration.ofSeconds(5))) {
            int changed = db.inTransaction(t -> t.orders().applyAllIfNewer(rows));
            assertThat(changed).isEqualTo(2 + 1_234);
        }
        assertThat(RawSql.column("SELECT CONCAT(status, '/', version, '/', status_since_ms) FROM orders WHERE order_id = 'aa-1'"))
                .containsExactly("2/2/1764577000123");
        assertThat(RawSql.column("SELECT CONCAT(status, '/', version) FROM orders WHERE order_id = 'AA-1'")).containsExactly("1/1");
        assertThat(RawSql.column("SELECT CONCAT(status, '/', version) FROM orders WHERE order_id = 'newer'")).containsExactly("3/9");
        assertThat(RawSql.column("SELECT CONCAT(status, '/', version) FROM orders WHERE order_id = 'q\"uo\\\\te'")).containsExactly("6/2");
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = 'absent'")).isZero();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'bulk-%' AND status = 2 AND version = 2")).isEqualTo(1_234);
    }
}

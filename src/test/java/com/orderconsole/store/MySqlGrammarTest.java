package com.orderconsole.store;

import com.orderconsole.Slow;
import com.orderconsole.identity.AccessControlledDb;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.scripting.xmltags.DynamicSqlSource;
import org.apache.ibatis.session.Configuration;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every SQL text the product sends, checked against MySQL 8's grammar, since no MySQL server can run here: the SQL
 * migrations, the statements the Java migrations and {@link ConsoleRoles} send (recorded on the way to a MariaDB with
 * grant tables), those of the privilege check and role reading, every MyBatis mapper statement as MyBatis builds it
 * for MySQL ({@link Database#mappers}), and the plain JDBC texts of the stores.
 *
 * <p>The check is JSqlParser (it parses MySQL's grammar, and more) plus rules for what it lets through but MySQL 8
 * refuses or deprecates: MariaDB-only forms ({@link #MARIADB_ONLY}). What JSqlParser 5.3 cannot parse although
 * MySQL 8 takes it is in {@link #PARSER_GAPS}, each with the manual page that says MySQL takes it: that part is taken
 * out before parsing (a whole statement when nothing else of it can be parsed); the MariaDB-only rules still apply.
 */
@Slow
class MySqlGrammarTest {
    /** Forms MariaDB takes and MySQL 8.0/8.4 refuses (or deprecates), with where MySQL's manual says so. */
    static final Map<Pattern, String> MARIADB_ONLY = new LinkedHashMap<>();
    /** What MySQL 8 takes and JSqlParser 5.3 does not parse: taken out before parsing, with why it is MySQL. */
    static final Map<Pattern, String> PARSER_GAPS = new LinkedHashMap<>();

    static {
        MARIADB_ONLY.put(rule("\\bCREATE\\s+OR\\s+REPLACE\\s+(?!VIEW\\b)(?:DEFINER\\s*=\\s*\\S+\\s+)?\\w+"),
                "CREATE OR REPLACE exists in MySQL for views only (refman/8.4/en/create-table.html, create-procedure.html, create-trigger.html)");
        MARIADB_ONLY.put(rule("\\bSET\\s+DEFAULT\\s+ROLE\\b.*\\bFOR\\b"),
                "MySQL's SET DEFAULT ROLE names the account after TO (refman/8.4/en/set-default-role.html)");
        MARIADB_ONLY.put(rule("\\bON\\s+DUPLICATE\\s+KEY\\s+UPDATE\\b.*\\bVALUES\\s*\\("),
                "VALUES(col) in ON DUPLICATE KEY UPDATE is deprecated since MySQL 8.0.20, warning 1287 (refman/8.4/en/insert-on-duplicate.html)");
        MARIADB_ONLY.put(rule("\\bRETURNING\\b"), "MySQL has no INSERT/DELETE ... RETURNING (refman/8.4/en/insert.html)");
        MARIADB_ONLY.put(rule("\\b(?:CREATE|ALTER|DROP)\\s+SEQUENCE\\b|\\bNEXTVAL\\s*\\(|\\bNEXT\\s+VALUE\\s+FOR\\b|\\bLASTVAL\\s*\\("),
                "MySQL has no sequences (refman/8.4/en/example-auto-increment.html)");
        MARIADB_ONLY.put(rule("\\b(?:ADD|DROP|MODIFY|CHANGE)\\s+(?:COLUMN\\s+|KEY\\s+|INDEX\\s+|CONSTRAINT\\s+)?IF\\s+(?:NOT\\s+)?EXISTS\\b"
                        + "|\\bCREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+IF\\b"),
                "MySQL's ALTER TABLE and CREATE INDEX take no IF [NOT] EXISTS (refman/8.4/en/alter-table.html)");
        MARIADB_ONLY.put(rule("uca1400|utf8mb3_general1400"), "MariaDB 11's collations are unknown to MySQL (refman/8.4/en/charset-mysql.html)");
        MARIADB_ONLY.put(rule("\\bROWS\\s+EXAMINED\\b"), "LIMIT ROWS EXAMINED is MariaDB's (refman/8.4/en/select.html)");

        PARSER_GAPS.put(rule("^CREATE\\s+ROLE\\s+IF\\s+NOT\\s+EXISTS\\s+\\w+$"),
                "CREATE ROLE [IF NOT EXISTS] role (refman/8.4/en/create-role.html)");
        PARSER_GAPS.put(rule("^GRANT\\s+\\w+\\s+TO\\s+\\w+$"), "GRANT role TO role (refman/8.4/en/grant.html, Granting Roles)");
        PARSER_GAPS.put(rule("^SHOW\\s+GRANTS\\s+FOR\\s+CURRENT_USER\\(\\)(\\s+USING\\s+.+)?$"),
                "SHOW GRANTS [FOR user [USING role]] (refman/8.4/en/show-grants.html)");
        PARSER_GAPS.put(rule("^SET\\s+DEFAULT\\s+ROLE\\s+\\w+\\s+TO\\s+'[^']+'@'[^']+'$"),
                "SET DEFAULT ROLE role TO user (refman/8.4/en/set-default-role.html)");
        PARSER_GAPS.put(rule("^DROP\\s+TRIGGER\\s+(IF\\s+EXISTS\\s+)?\\w+$"),
                "DROP TRIGGER [IF EXISTS] name (refman/8.4/en/drop-trigger.html)");
        PARSER_GAPS.put(rule("^REVOKE\\s+(INSERT|UPDATE)\\s+ON\\s+\\S+\\s+FROM\\s+\\w+$"),
                "REVOKE priv ON db.table FROM role (refman/8.4/en/revoke.html)");
        PARSER_GAPS.put(rule("^DROP\\s+PROCEDURE\\s+(IF\\s+EXISTS\\s+)?\\w+$"),
                "DROP PROCEDURE [IF EXISTS] name (refman/8.4/en/drop-procedure.html)");
        PARSER_GAPS.put(rule("^GRANT\\s+EXECUTE\\s+ON\\s+PROCEDURE\\s+\\S+\\s+TO\\s+\\w+$"),
                "GRANT EXECUTE ON PROCEDURE db.name TO role (refman/8.4/en/grant.html, Routine privileges)");
        PARSER_GAPS.put(rule("^GRANT\\s+UPDATE\\s*\\(\\w+\\)\\s+ON\\s+\\S+\\s+TO\\s+\\w+$"),
                "GRANT priv (column) ON table TO role (refman/8.4/en/grant.html, Column privileges)");
        PARSER_GAPS.put(rule("^REVOKE\\s+EXECUTE\\s+ON\\s+PROCEDURE\\s+\\S+\\s+FROM\\s+\\w+$"),
                "REVOKE EXECUTE ON PROCEDURE db.name FROM role (refman/8.4/en/revoke.html)");
        PARSER_GAPS.put(rule("\\s+LOCK\\s+IN\\s+SHARE\\s+MODE$"),
                "SELECT ... LOCK IN SHARE MODE, kept by MySQL 8 as FOR SHARE (refman/8.4/en/innodb-locking-reads.html); the SELECT is parsed");
        PARSER_GAPS.put(rule("^EXPLAIN\\s+FORMAT\\s*=\\s*TRADITIONAL\\s+"),
                "EXPLAIN FORMAT=TRADITIONAL (refman/8.4/en/explain.html); the statement explained is parsed");
        PARSER_GAPS.put(rule("(?<=\\bINDEX)\\s+FOR\\s+ORDER\\s+BY(?=\\s*\\()"),
                "index hints FOR ORDER BY (refman/8.4/en/index-hints.html); the rest of the hint is parsed");
        PARSER_GAPS.put(rule("^.*\\bJSON_TABLE\\s*\\(.*$"),
                "JSON_TABLE(expr, path COLUMNS (...)) AS alias, MySQL 8.0.4+ (refman/8.4/en/json-table-functions.html)");
    }

    private static Pattern rule(String regex) {
        return Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    }

    /**
     * @return why MySQL 8 would not take the statement as written, or empty when it would (JSqlParser parses it, or it
     *     is a listed parser gap, and no MariaDB-only rule matches)
     */
    static Optional<String> mySqlProblem(String sql) {
        String statement = sql.strip().replaceAll("\\s+", " ").replaceFirst(";$", "");
        for (Map.Entry<Pattern, String> r : MARIADB_ONLY.entrySet()) {
            if (r.getKey().matcher(statement).find()) {
                return Optional.of("MariaDB-only: " + r.getValue());
            }
        }
        String parsed = statement;
        for (Pattern gap : PARSER_GAPS.keySet()) {
            parsed = gap.matcher(parsed).replaceAll("");
        }
        if (parsed.isBlank()) {
            return Optional.empty();
        }
        try {
            CCJSqlParserUtil.parse(parsed, parser -> parser.withTimeOut(10_000));
            return Optional.empty();
        } catch (Exception e) {
            String m = String.valueOf(e.getMessage());
            return Optional.of("not MySQL grammar: " + m.lines().findFirst().orElse(m));
        }
    }

    @Test
    void mariaDbOnlyStatementsAreRefusedAndMySqlOnesTaken() {
        for (String mariaDbOnly : List.of(
                "CREATE OR REPLACE TABLE t (a INT)",
                "CREATE OR REPLACE PROCEDURE p() SELECT 1",
                "CREATE OR REPLACE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
                "SET DEFAULT ROLE order_console_ops FOR 'dora'@'%'",
                "INSERT INTO t (a, b) VALUES (1, 2) ON DUPLICATE KEY UPDATE b = VALUES(b)",
                "INSERT INTO t (a) VALUES (1) RETURNING a",
                "DELETE FROM t WHERE a = 1 RETURNING a",
                "CREATE SEQUENCE s START WITH 1",
                "SELECT NEXTVAL(s)",
                "SELECT NEXT VALUE FOR s",
                "ALTER TABLE t ADD COLUMN IF NOT EXISTS b INT",
                "ALTER TABLE t DROP INDEX IF EXISTS i",
                "CREATE TABLE t (a VARCHAR(5) COLLATE utf8mb4_uca1400_ai_ci)",
                "SELECT a FROM t LIMIT ROWS EXAMINED 100",
                "SELECT FROM WHERE")) {
            assertThat(mySqlProblem(mariaDbOnly)).as(mariaDbOnly).isPresent();
        }
        for (String mySql : List.of(
                "CREATE OR REPLACE VIEW v AS SELECT a FROM t",
                "SET DEFAULT ROLE order_console_ops TO 'dora'@'%'",
                "CREATE ROLE IF NOT EXISTS order_console_ops",
                "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = ?")) {
            assertThat(mySqlProblem(mySql)).as(mySql).isEmpty();
        }
    }

    @Test
    void everyStatementTheProductSendsIsMySql8() throws Exception {
        Map<String, String> statements = new LinkedHashMap<>();
        sqlMigrations(statements);
        recordedFromJava(statements);
        mapperStatements(statements);
        statements.put("HistoryStore.INSERT_IGNORE (2 rows)", HistoryStore.INSERT_IGNORE.text(2));
        statements.put("OrderStore.APPLY_ALL", OrderStore.APPLY_ALL);
        statements.put("OrderStore.MISSING", OrderStore.MISSING);
        statements.put("SqlDialect.globalStatusQuery", SqlDialect.MYSQL.globalStatusQuery());
        statements.put("SqlDialect.setDefaultRole", SqlDialect.MYSQL.setDefaultRole("order_console_ops", "'dora'@'%'"));
        statements.put("SqlDialect.showGrants", SqlDialect.MYSQL.showGrants(new SqlDialect.Roles(Set.of(),
                Set.of("team_lead"), Set.of())).get(0));
        assertThat(statements.values()).as("the role grants are recorded").contains("GRANT order_console_read_only TO order_console_support");
        assertThat(statements.keySet()).as("statements read").hasSizeGreaterThan(80)
                .anyMatch(k -> k.startsWith("recorded from")).anyMatch(k -> k.startsWith("V35__Bulk_plan"))
                .anyMatch(k -> k.startsWith("AuditEventMapper.explainHistory")).anyMatch(k -> k.startsWith("OrderMapper.page"));

        Map<String, String> problems = new LinkedHashMap<>();
        statements.forEach((where, sql) -> mySqlProblem(sql).ifPresent(p -> problems.put(where + ": " + sql, p)));
        assertThat(problems).as("statements MySQL 8 would not take").isEmpty();
    }

    /** Every statement of every SQL migration, split at the semicolons that end a line. */
    private static void sqlMigrations(Map<String, String> out) throws IOException {
        Path dir = Path.of("src/main/resources/db/migration");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8).replaceAll("(?m)^\\s*--.*$", "");
                int n = 0;
                for (String s : text.split(";\\s*(\\n|$)")) {
                    if (!s.isBlank()) {
                        out.put(f.getFileName() + " #" + (++n), s.strip());
                    }
                }
            }
        }
    }

    /**
     * Runs every migration on a new schema of the MariaDB with grant tables, through connections that record each
     * statement sent from the product's own code (the Java migrations, {@link ConsoleRoles}), then the privilege
     * check and the role reading the same way.
     */
    private static void recordedFromJava(Map<String, String> out) throws Exception {
        String url = AccessControlledDb.server().jdbcUrl().replace("/orders?", "/orders_grammar?");
        AccessControlledDb.root(st -> {
            st.execute("DROP DATABASE IF EXISTS orders_grammar");
            st.execute("CREATE DATABASE orders_grammar");
        });
        List<String> recorded = new ArrayList<>();
        try {
            DataSource ds = recordingDataSource(url, recorded);
            Flyway.configure().dataSource(ds).locations("classpath:db/migration", "classpath:com/orderconsole/store/migration")
                    .load().migrate();
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                MigrationPrivileges.missing(c);
                SqlDialect.rolesInForce(st);
            }
        } finally {
            AccessControlledDb.root(st -> st.execute("DROP DATABASE orders_grammar"));
        }
        Set<String> distinct = new TreeSet<>(recorded);
        int n = 0;
        for (String sql : distinct) {
            out.put(sql.startsWith("CREATE TABLE bulk_plan") ? "V35__Bulk_plan #" + (++n)
                    : sql.startsWith("CREATE TABLE bulk_") ? "V31__Bulk_batches #" + (++n)
                    : "recorded from V20/V38, ConsoleRoles, MigrationPrivileges #" + (++n), sql);
        }
        // MySQL has no is_role column: the query is asked on MariaDB only (SqlDialect.existingConsoleRolesQuery).
        out.values().removeIf(sql -> sql.equals(SqlDialect.MARIADB.existingConsoleRolesQuery()));
    }

    private static DataSource recordingDataSource(String url, List<String> recorded) {
        InvocationHandler source = (proxy, method, args) -> switch (method.getName()) {
            case "getConnection" -> recording(DriverManager.getConnection(url, "root", ""), recorded);
            case "getLoginTimeout" -> 0;
            case "isWrapperFor" -> false;
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "recording data source";
            default -> null;
        };
        return (DataSource) Proxy.newProxyInstance(MySqlGrammarTest.class.getClassLoader(), new Class<?>[] {DataSource.class}, source);
    }

    /** A connection (and its statements) that note every SQL text sent from the product's store package. */
    private static Object recording(Object target, List<String> recorded) {
        Class<?> type = target instanceof Connection ? Connection.class : target instanceof java.sql.PreparedStatement
                ? java.sql.PreparedStatement.class : Statement.class;
        InvocationHandler h = (proxy, method, args) -> {
            if (args != null && args.length > 0 && args[0] instanceof String sql && fromProduct()
                    && Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "addBatch", "prepareStatement",
                    "prepareCall").contains(method.getName())) {
                recorded.add(sql);
            }
            try {
                Object r = method.invoke(target, args);
                return r instanceof Statement ? recording(r, recorded) : r;
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return Proxy.newProxyInstance(MySqlGrammarTest.class.getClassLoader(), new Class<?>[] {type}, h);
    }

    private static boolean fromProduct() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName().startsWith("com.orderconsole.store.")
                && !f.getClassName().startsWith(MySqlGrammarTest.class.getName())));
    }

    /**
     * Every mapped statement as MyBatis builds it for MySQL; a dynamic one is built with every optional part present,
     * each collection of two items, once per exclusive branch (order page by id and by age, legal moves and overrides).
     */
    private static void mapperStatements(Map<String, String> out) {
        Configuration cfg = MapperConfigurations.build(SqlDialect.MYSQL);
        Set<String> ids = new TreeSet<>();
        for (Object o : cfg.getMappedStatements()) {
            if (o instanceof MappedStatement ms && ms.getId().contains(".")) {
                ids.add(ms.getId());
            }
        }
        for (String id : ids) {
            MappedStatement ms = cfg.getMappedStatement(id);
            String name = id.substring(id.lastIndexOf('.', id.lastIndexOf('.') - 1) + 1);
            if (ms.getSqlSource() instanceof DynamicSqlSource) {
                out.put(name + " (by id, legal moves)", ms.getBoundSql(everything(false, "LEGAL")).getSql());
                out.put(name + " (by age, overrides)", ms.getBoundSql(everything(true, "OVERRIDE")).getSql());
            } else {
                out.put(name, ms.getBoundSql(null).getSql());
            }
        }
    }

    /** Parameters with every optional part present; collections hold two of the same. */
    private static Map<String, Object> everything(boolean byAge, String moveKind) {
        Map<String, Object> row = new HashMap<>() {
            @Override
            public Object get(Object key) {
                return 1L;
            }

            @Override
            public boolean containsKey(Object key) {
                return true;
            }
        };
        Map<String, Object> params = new HashMap<>() {
            @Override
            public Object get(Object key) {
                return switch (String.valueOf(key)) {
                    case "byAge" -> byAge;
                    case "moveKind" -> moveKind;
                    case "ids", "keys", "orderIds", "statuses" -> List.of(1L, 2L);
                    case "rows", "entries", "edges", "stuckBounds", "ageParts" -> List.of(row, row);
                    default -> 1L;
                };
            }

            @Override
            public boolean containsKey(Object key) {
                return true;
            }
        };
        return params;
    }
}

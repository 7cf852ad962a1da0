package com.orderconsole.store;

import org.apache.ibatis.session.Configuration;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MyBatis mappers of each SQL dialect, built once per process and shared by every pool on a server of that
 * dialect: building them parses the 11 mappers' statements and looks for their XML on the class path (tens of
 * milliseconds of CPU), which a console switching profiles or a command opening a second pool need not pay again.
 * They hold no data source.
 */
final class MapperConfigurations {
    private static final Map<SqlDialect, Configuration> BUILT = new ConcurrentHashMap<>();

    private MapperConfigurations() {
    }

    /** @return the shared mappers for a server of this dialect, built on first use */
    static Configuration of(SqlDialect dialect) {
        return BUILT.computeIfAbsent(dialect, MapperConfigurations::build);
    }

    /**
     * The MyBatis mappers with their statements phrased for one server ({@code ${explain}}:
     * {@link SqlDialect#explainTabular()}), without a data source; the grammar test reads every statement from it.
     *
     * @return a new configuration, not shared
     */
    static Configuration build(SqlDialect dialect) {
        Configuration cfg = new Configuration();
        cfg.getVariables().setProperty("explain", dialect.explainTabular());
        cfg.setMapUnderscoreToCamelCase(true);
        cfg.setDefaultStatementTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
        cfg.addMapper(OrderMapper.class);
        cfg.addMapper(HistoryMapper.class);
        cfg.addMapper(SyncCursorMapper.class);
        cfg.addMapper(RulesArchiveMapper.class);
        cfg.addMapper(DatasetMapper.class);
        cfg.addMapper(DeadLetterMapper.class);
        cfg.addMapper(AuditMapper.class);
        cfg.addMapper(BulkMapper.class);
        cfg.addMapper(AuditEventMapper.class);
        cfg.addMapper(AccountMapper.class);
        cfg.addMapper(ApiClientMapper.class);
        return cfg;
    }
}

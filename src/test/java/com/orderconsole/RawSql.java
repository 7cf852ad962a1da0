package com.orderconsole;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Plain JDBC to the test MariaDB, for planting faults and reading tables directly in assertions. */
public final class RawSql {
    private RawSql() {
    }

    public static int update(String sql) {
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement()) {
            return st.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static long count(String sql) {
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the first column of every row of a query, as text (for assertion messages) */
    public static java.util.List<String> column(String sql) {
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            java.util.List<String> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}

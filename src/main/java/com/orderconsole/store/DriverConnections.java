package com.orderconsole.store;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool's connections, straight from the JDBC driver with fixed properties. A pool given a JDBC URL instead sets
 * the JVM-wide login timeout from its own wait for a connection, which also cut the driver's sign-in short: a busy
 * host's slow sign-in failed after the pool's wait (2 s). Here the driver's connect timeout alone bounds the sign-in,
 * and the login timeout a pool asks for is ignored.
 */
final class DriverConnections implements DataSource {
    private final Driver driver;
    private final String url;
    private final Properties props;

    /**
     * @param url the JDBC URL
     * @param props the driver's properties, user and password among them
     * @throws IllegalArgumentException when no JDBC driver takes the URL
     */
    DriverConnections(String url, Properties props) {
        try {
            this.driver = DriverManager.getDriver(url);
        } catch (SQLException e) {
            throw new IllegalArgumentException("no JDBC driver takes '" + DatabaseFailures.describe(url) + "': use jdbc:mysql:// or jdbc:mariadb://", e);
        }
        this.url = url;
        this.props = props;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection c = driver.connect(url, props);
        if (c == null) {
            throw new SQLException("the JDBC driver does not take '" + DatabaseFailures.describe(url) + "'");
        }
        return c;
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        Properties p = new Properties();
        p.putAll(props);
        p.setProperty("user", username);
        p.setProperty("password", password == null ? "" : password);
        return driver.connect(url, p);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // no log writer: the driver logs through its own logger
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // ignored: the driver's connect timeout bounds the sign-in
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}

package com.orderconsole.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.domain.HistoryEntry;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Calls of the V39 stored procedures, through which a signed-in person's session writes what names who acted: the
 * audit log, new orders with their first history, and the order columns a person's work changes, so that no person writes in another's name. The
 * database stamps the calling login as the actor; nothing here passes a name. Used by the stores when
 * {@link Database#writesStamped()}.
 */
final class Procedures {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The audit action of an admin's override (service.AuditTrail.OVERRIDE: the store cannot see the service layer). */
    static final String OVERRIDE = "OVERRIDE";

    private Procedures() {
    }

    /** Records the login of this session as seen by the database; as the follower when {@code follower}. */
    static void signIn(Connection c, boolean follower) {
        call(c, follower ? "order_console_follower_sign_in" : "order_console_sign_in", "record this sign-in");
    }

    /**
     * Appends an audit row whose actor and time the database sets (this session's login, its clock). An override has a
     * procedure of its own that only admin may call (V40); the others need ops.
     */
    static void recordAction(Connection c, AuditRow r) {
        if (OVERRIDE.equals(r.action)) {
            call(c, "order_console_record_override", "record the override", r.source, r.orderId, r.reason, r.detail);
        } else {
            call(c, "order_console_record_action", "record the action", r.source, r.action, r.orderId, r.reason, r.detail);
        }
    }

    /**
     * Inserts orders that do not exist yet and the history of those, the actor of every history row being this login.
     * Which procedure depends on what is written, and each is granted to the one role that may write it (V40): new
     * WAIT_PAY orders with their creation row (support), an import's history from version 1 (ops), reconciliation's
     * copy of a Redis-only order (admin). The procedure checks the rows itself.
     *
     * @param rows the orders (status, version and times as they are to be stored)
     * @param history their history; rows of orders that exist already are not written
     */
    static void createOrders(Connection c, List<OrderRow> rows, List<HistoryEntry> history) {
        String procedure = "order_console_create_orders";
        if (!(history.size() == rows.size() && rows.stream().allMatch(r -> r.status == 1 && r.version == 1)
                && history.stream().allMatch(e -> e.from() == null && e.version() == 1 && !"import".equals(e.source())))) {
            boolean copy = rows.size() == 1 && history.size() == 1 && history.get(0).from() == null && history.get(0).version() > 1;
            procedure = copy ? "order_console_copy_order" : "order_console_import_orders";
        }
        List<Object[]> o = new ArrayList<>(rows.size());
        for (OrderRow r : rows) {
            o.add(new Object[]{r.orderId, r.customerId, r.status, r.version, r.createdAtMs, r.statusSinceMs, r.expireAtMs});
        }
        List<Object[]> h = new ArrayList<>(history.size());
        for (HistoryEntry e : history) {
            h.add(new Object[]{e.orderId(), e.from() == null ? null : e.from().code(), e.to().code(), e.version(),
                    e.code().code(), e.source(), e.reason() == null ? "" : e.reason(), e.atMs(), e.eventKey()});
        }
        call(c, procedure, "create the orders", json(o), json(h));
    }

    static void markLoaded(Connection c, List<String> ids) {
        call(c, "order_console_mark_loaded", "mark the orders loaded into Redis", json(ids));
    }

    /** Records a payment deadline with its audit row (the database writes both, ops only: V40). */
    static void setExpiry(Connection c, String orderId, long expireAtMs, AuditRow r) {
        call(c, "order_console_set_expiry", "record the payment deadline", orderId, expireAtMs, r.source, r.reason, r.detail);
    }

    /** Closes an open dead letter as RETRIED or DISCARDED with its audit row (the database writes both, ops only: V40). */
    static void resolveDeadLetter(Connection c, long id, String state, String resolution, AuditRow r) {
        call(c, "order_console_resolve_dead_letter", "close the dead letter", id, state, resolution, r.source, r.detail);
    }

    /** Moves an order's row to the version its own history records as applied, if the row is older. */
    static void followHistory(Connection c, String orderId, long version) {
        call(c, "order_console_follow_history", "bring the order's row to its history", orderId, version);
    }

    /** Registers an API client (V45); the procedure writes the audit row and stamps the admin's login. */
    static void addApiClient(Connection c, String name, String role, String tokenSha256) {
        call(c, "order_console_api_client_add", "register the API client", name, role, tokenSha256);
    }

    /** Revokes an API client (V45), with its audit row. */
    static void revokeApiClient(Connection c, String name) {
        call(c, "order_console_api_client_revoke", "revoke the API client", name);
    }

    /**
     * Creates one order at WAIT_PAY, version 1, with its creation row in an API client's name (V45, serve's account only;
     * the procedure refuses an unregistered or revoked client).
     */
    static void createApiOrder(Connection c, String client, OrderRow r, HistoryEntry created) {
        call(c, "order_console_api_create_order", "create the order", client, r.orderId, r.customerId, r.createdAtMs, r.expireAtMs,
                created.eventKey());
    }

    /** Records a person serve verified (V49, serve's account only); refused when the name is another person's. */
    static void recordPerson(Connection c, String actor, String issuer, String subject) {
        call(c, "order_console_sso_person", "record the person", actor, issuer, subject);
    }

    /** Creates one order at WAIT_PAY, version 1, with its creation row in a recorded person's name (V49, serve's account only). */
    static void createPersonOrder(Connection c, String actor, OrderRow r, HistoryEntry created) {
        call(c, "order_console_sso_create_order", "create the order", actor, r.orderId, r.customerId, r.createdAtMs, r.expireAtMs,
                created.eventKey());
    }

    /** Appends an audit row in a recorded person's name, with the database's clock (V49, serve's account only). */
    static void recordPersonAction(Connection c, AuditRow r) {
        call(c, "order_console_sso_record_action", "record the action", r.actor, r.source, r.action, r.orderId, r.reason, r.detail);
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the rows as JSON: " + e.getMessage(), e);
        }
    }

    private static void call(Connection c, String procedure, String what, Object... args) {
        String marks = String.join(", ", Arrays.stream(args).map(a -> "?").toList());
        // A plain prepared CALL: Connector/J's prepareCall first reads the procedure's parameter metadata, which an
        // account holding only EXECUTE may not see (MariaDB 10.11 refuses it).
        try (PreparedStatement cs = c.prepareStatement("CALL " + procedure + "(" + marks + ")")) {
            cs.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            for (int i = 0; i < args.length; i++) {
                cs.setObject(i + 1, args[i]);
            }
            cs.execute();
        } catch (SQLException e) {
            if (e.getErrorCode() == DatabaseFailures.ER_NO_SUCH_USER) {
                throw new IllegalStateException("cannot " + what + " in MySQL: " + DatabaseFailures.DEFINER_GONE, e);
            }
            throw new IllegalStateException("cannot " + what + " in MySQL: " + DatabaseFailures.rootMessage(e), e);
        }
    }
}

package com.orderconsole.service.deadletter;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.order.OrderRebuilder;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The dead-letter list: records the follower, the transition script or the sweeper could not process,
 * set aside in MySQL so that everything else goes on. Ops retry a letter (the order's Redis state is
 * restored from MySQL, the durable record) or discard it with a reason; both are kept with who and when.
 */
public final class DeadLetterService implements DeadLetters {
    private static final Logger log = LoggerFactory.getLogger(DeadLetterService.class);

    private final Database db;
    private final OrderRebuilder rebuilder;
    private final Access access;
    private final AuditTrail audit;

    /** Built by the wiring ({@code app.Services}). */
    public DeadLetterService(Database db, OrderRebuilder rebuilder, Access access, AuditTrail audit) {
        this.audit = audit;
        this.db = db;
        this.rebuilder = rebuilder;
        this.access = access;
    }

    /**
     * @param limit at most this many, 1..10,000
     * @return open letters, oldest first
     */
    public List<DeadLetter> open(int limit) {
        if (limit < 1 || limit > 10_000) {
            throw new IllegalArgumentException("limit must be 1..10000, got " + limit);
        }
        return db.read(t -> t.deadLetters().open(limit)).stream().map(DeadLetterService::letter).toList();
    }

    /** @return how many letters are open */
    public long countOpen() {
        return db.read(t -> t.deadLetters().countOpen());
    }

    /**
     * Retries a letter (role ops): restores its order's Redis state from MySQL (after applying what the
     * outbox still holds for it) and closes the letter. MySQL and its history are the truth, so nothing
     * is written that no recorded transition explains.
     *
     * @param id the letter
     * @return the letter as closed
     * @throws IllegalArgumentException when there is no open letter with that id, or it names no order
     * @throws IllegalStateException when MySQL has no record of the order (discard the letter instead)
     */
    public DeadLetter retry(Operator operator, long id) {
        access.require(operator, Role.OPS, "retry dead letters");
        DeadLetterRow row = openLetter(id);
        if (row.orderId == null) {
            throw new IllegalArgumentException("dead letter " + id + " names no order: discard it instead");
        }
        OrderState st = rebuilder.restoreFromMysql(row.orderId);
        if (st == null) {
            throw new IllegalStateException("MySQL has no record of order " + row.orderId + ": discard dead letter "
                    + id + " instead");
        }
        String text = "order " + row.orderId + " restored in Redis from MySQL: " + st.status() + " v" + st.version();
        close(id, "RETRIED", operator, text, AuditTrail.DEAD_LETTER_RETRY, row.orderId, "", "letter " + id + ": " + text);
        log.info("{} retried dead letter {}: {}", operator.name(), id, text);
        return letter(db.read(t -> t.deadLetters().find(id)));
    }

    /**
     * Discards a letter (role ops): it stays in the list, closed, with who and why.
     *
     * @param reason why, required
     * @return the letter as closed
     */
    public DeadLetter discard(Operator operator, long id, String reason) {
        access.require(operator, Role.OPS, "discard dead letters");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("discarding a dead letter needs a reason");
        }
        DeadLetterRow row = openLetter(id);
        close(id, "DISCARDED", operator, reason.strip(), AuditTrail.DEAD_LETTER_DISCARD, row.orderId, reason.strip(), "letter " + id
                + " (" + row.kind + ") discarded: " + row.reason);
        log.info("{} discarded dead letter {}: {}", operator.name(), id, reason.strip());
        return letter(db.read(t -> t.deadLetters().find(id)));
    }

    private DeadLetterRow openLetter(long id) {
        DeadLetterRow row = db.read(t -> t.deadLetters().find(id));
        if (row == null || !"OPEN".equals(row.state)) {
            throw new IllegalArgumentException("no open dead letter " + id);
        }
        return row;
    }

    /** Closes the letter and records it in the audit trail, in one transaction (issue 33: never one without the other). */
    private void close(long id, String state, Operator operator, String text, String action, String orderId, String reason,
                       String detail) {
        long now = System.currentTimeMillis();
        boolean closed = db.inTransaction(t -> t.deadLetters().resolve(id, state, operator.name(), now, text,
                new com.orderconsole.store.AuditRow(now, operator.name(), "dead-letters", action, orderId, reason, detail)));
        if (!closed) {
            throw new IllegalArgumentException("dead letter " + id + " was closed by someone else meanwhile");
        }
    }

    private static DeadLetter letter(DeadLetterRow r) {
        return new DeadLetter(r.id, r.kind, r.orderId, r.bucket, r.entryId, r.reason, r.body, r.createdAtMs, r.state,
                r.resolvedBy, r.resolution);
    }
}

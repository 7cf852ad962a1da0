package com.orderconsole.service;

import com.orderconsole.domain.OrderId;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sets aside an order id that breaks the id rule ({@link OrderId}) wherever a background job meets one in a store (the
 * cancel queue, an order row in MySQL): one open dead letter per id, of kind {@link DeadLetterRow#MALFORMED_ID}, in
 * words that say where it was found and what the engineer can do; the job then carries on with every other order.
 * Such an id exists only when it was stored before the checks refused it, or by hand: no transition can run on it,
 * so the sweeper cannot cancel it and Redis gets no state for it.
 *
 * <p>The letter names the id printable (control characters as {@code \}{@code uXXXX}) and keeps its exact characters
 * as a JSON string in the body; its {@code order_id} stays empty (the column is for ids the product can look up).
 * Each id is written once per process: a job that meets it every round asks MySQL once.
 */
public final class MalformedIds {
    private static final Logger log = LoggerFactory.getLogger(MalformedIds.class);
    private final Database db;
    private final Set<String> setAside = ConcurrentHashMap.newKeySet();

    /** Built by the wiring ({@code app.Services}). */
    public MalformedIds(Database db) {
        this.db = db;
    }

    /**
     * Opens the id's dead letter unless this process did already (one letter per id while open, whoever writes it).
     *
     * @param id the id exactly as found
     * @param where where it was found, e.g. "the cancel queue of bucket 3 (deadline 1700000000000 epoch ms)"
     * @param wayOut what the engineer can do, in words
     * @return true when the letter is open now (written now or before), false when MySQL could not be reached
     */
    public boolean setAside(String id, String where, String wayOut) {
        if (setAside.contains(id)) {
            return true;
        }
        String shown = OrderId.printable(id);
        String reason = "order id '" + shown + "' breaks the id rule (1-64 ASCII letters, digits, '_' or '-'): found in " + where
                + ". " + wayOut;
        try {
            boolean added = db.inTransaction(t -> t.deadLetters().add(DeadLetterRow.open(DeadLetterRow.MALFORMED_ID, null,
                    RedisKeys.bucket(id), null, reason, "{\"orderId\":" + json(id) + "}", System.currentTimeMillis(), openKey(id))));
            if (added) {
                log.warn("set aside order id '{}' found in {}: it breaks the id rule", shown, where);
            }
            setAside.add(id);
            return true;
        } catch (RuntimeException e) {
            log.warn("order id '{}' found in {} breaks the id rule and could not be set aside now: {}", shown, where, e.getMessage());
            return false;
        }
    }

    /** @return the open key of an id's letter: a digest, since the id itself may hold any character */
    static String openKey(String id) {
        try {
            return "malformed-id:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(id.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return {@code s} as a JSON string literal: exact, and printable (control characters escaped) */
    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}

package com.orderconsole.ui.common;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.recon.ReconCategory;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Repair texts in the language in use, with times as local date-times. The service records what a repair did in
 * English words in the audit log (the durable record, read by the CLI and exports too) and names a dry run's steps in
 * English; the console shows those known phrases through the bundles, and every time inside them (epoch milliseconds
 * of a raw Redis hash, a payment deadline, an ISO-8601 instant) as a local date-time. Text it does not know is shown
 * as stored, its times converted.
 */
public final class RepairText {
    // The English phrases the repairs record (service/recon); each maps to a bundle key whose arguments are the groups.
    private static final String STATE = "(?:\\S+ v\\d+|no Redis state|no MySQL record|a malformed record \\(.*\\))"; // i18n-ok: a pattern of stored text
    private static final List<Phrase> PHRASES = List.of(
            new Phrase("^(.*); dead letter (\\d+) closed$", "repair.text.letterClosed", RepairText::detailOf, Function.identity()), // i18n-ok: a pattern of stored text
            new Phrase("^letter (\\d+): (.*)$", "repair.text.letter", Function.identity(), RepairText::detailOf), // i18n-ok: a pattern of stored text
            new Phrase("^closed by reconciliation's repair: (.*)$", "repair.text.closedByRepair", RepairText::detailOf), // i18n-ok: a pattern of stored text
            new Phrase("^closed by the data-set restore: (.*)$", "repair.text.closedByRestore", RepairText::detailOf), // i18n-ok: a pattern of stored text
            new Phrase("^Redis restored from MySQL$", "repair.text.restoredShort"), // i18n-ok: a pattern of stored text
            new Phrase("^Redis rebuilt from MySQL: (" + STATE + ")$", "repair.text.rebuilt", RepairText::state), // i18n-ok: a pattern of stored text
            new Phrase("^Redis restored from MySQL: was (" + STATE + "), now (" + STATE + ")$", "repair.text.restored", // i18n-ok: a pattern of stored text
                    RepairText::state, RepairText::state),
            new Phrase("^MySQL row follows its history: was (" + STATE + "), now (" + STATE + ")$", "repair.text.followsHistory", // i18n-ok: a pattern of stored text
                    RepairText::state, RepairText::state),
            new Phrase("^MySQL row created from Redis: (" + STATE + ")$", "repair.text.createdFromRedis", RepairText::state), // i18n-ok: a pattern of stored text
            new Phrase("^queue entry removed \\(order is (" + STATE + ")\\)$", "repair.text.dequeued", RepairText::state), // i18n-ok: a pattern of stored text
            new Phrase("^queued with payment deadline (\\d+) \\(epoch ms\\)$", "repair.text.queued", RepairText::epochMs), // i18n-ok: a pattern of stored text
            new Phrase("^payment deadline (\\S+) removed \\(epoch ms (\\d+)\\)$", "repair.text.deadlineRemoved", // i18n-ok: a pattern of stored text
                    RepairText::times),
            new Phrase("^payment deadline (\\d+|none) -> (\\d+) \\(epoch ms\\)$", "repair.text.deadlineMoved", // i18n-ok: a pattern of stored text
                    RepairText::epochMs, RepairText::epochMs),
            new Phrase("^order id '(.*)' breaks the id rule: the sweeper cannot cancel it, so it is not queued again; see its dead letter$", // i18n-ok: a pattern of stored text
                    "repair.error.badId", Function.identity()),
            new Phrase("^MySQL has no record of it: it stays in the dead-letter list$", "repair.error.noMysql"), // i18n-ok: a pattern of stored text
            new Phrase("^order disappeared from (Redis|MySQL)$", "repair.error.disappeared", Function.identity()), // i18n-ok: a pattern of stored text
            new Phrase("^Redis is ahead of MySQL and MySQL's history has no such version: it is listed as (.+) on the next compare$", // i18n-ok: a pattern of stored text
                    "repair.error.unexplained", RepairText::category),
            new Phrase("^live counters recounted$", "repair.text.recounted"), // i18n-ok: a pattern of stored text
            new Phrase("^live counters of buckets? (.+) recounted$", "repair.text.recountedBuckets", Function.identity())); // i18n-ok: a pattern of stored text

    /** A dry run's words as the repairs name them, and their keys. */
    private static final Map<String, String> PLAN = Map.ofEntries(
            Map.entry("MySQL → Redis", "repair.plan.mysqlToRedis"), // i18n-ok: stored text
            Map.entry("Redis → MySQL (admin override, with a history row)", "repair.plan.redisToMysql"), // i18n-ok: stored text
            Map.entry("cancel queue", "repair.plan.cancelQueue"), // i18n-ok: stored text
            Map.entry("MySQL deadline → cancel queue", "repair.plan.deadlineToQueue"), // i18n-ok: stored text
            Map.entry("outbox → MySQL", "repair.plan.outbox"), // i18n-ok: stored text
            Map.entry("none: removed on purpose", "repair.plan.removedOnPurpose"), // i18n-ok: stored text
            Map.entry("left to the dead-letter list", "repair.plan.toDeadLetters"), // i18n-ok: stored text
            Map.entry("entry removed", "repair.plan.entryRemoved"), // i18n-ok: stored text
            Map.entry("queued", "repair.plan.queued"), // i18n-ok: stored text
            Map.entry("applied by the follower", "repair.plan.byFollower"), // i18n-ok: stored text
            Map.entry("left alone", "repair.plan.leftAlone")); // i18n-ok: stored text

    /** A compare's phases as the service names them, and their keys. */
    private static final Map<String, String> PHASES = Map.of("MySQL vs Redis", "repair.phase.mysqlVsRedis", // i18n-ok: stored text
            "Redis vs MySQL", "repair.phase.redisVsMysql", "cancel queues", "repair.phase.queues"); // i18n-ok: stored text

    /** A field of a raw Redis hash holding epoch milliseconds, e.g. "updateTime=1511380740000". */
    private static final Pattern EPOCH_FIELD = Pattern.compile("\\b(\\w*(?:Time|At|Ms|deadline|expiry))=(\\d{10,})\\b"); // i18n-ok: a pattern of stored text
    /** Epoch milliseconds named so in brackets, e.g. "(epoch ms 1765000000000)". */
    private static final Pattern EPOCH_NAMED = Pattern.compile("\\(epoch ms (\\d{10,})\\)"); // i18n-ok: a pattern of stored text
    /** An ISO-8601 instant as {@link Instant#toString()} writes it. */
    private static final Pattern INSTANT = Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?Z\\b");
    private static final Pattern STATUS_VERSION = Pattern.compile("^(\\S+) v(\\d+)$");
    private static final String MALFORMED_HEAD = "a malformed record ("; // i18n-ok: stored text

    private RepairText() {
    }

    /**
     * @param stored an audit-log row's detail as recorded, e.g. "Redis state with no record: Redis restored from MySQL:
     *     was FINISHED v3, now WAIT_SHIP v3", or null
     * @return it in the language in use, times as local date-times; "" for null
     */
    public static String detail(String stored) {
        if (stored == null) {
            return "";
        }
        for (ReconCategory c : ReconCategory.values()) {
            String head = c.label() + ": ";
            if (stored.startsWith(head)) {
                return Messages.format("repair.text.category", Messages.get(c.wordsKey()), detailOf(stored.substring(head.length())));
            }
        }
        return detailOf(stored);
    }

    /**
     * @param stored a dry-run step's direction or resulting state as a repair names it, e.g. "MySQL → Redis", "PAID v2"
     * @return it in the language in use; "" for null
     */
    public static String plan(String stored) {
        if (stored == null) {
            return "";
        }
        String key = PLAN.get(stored);
        return key != null ? Messages.get(key) : state(stored);
    }

    /**
     * @param stored a reconciliation run's phase as the service names it, e.g. "MySQL vs Redis" or "repairing Missing in Redis"
     * @return it in the language in use; "" for null
     */
    public static String phase(String stored) {
        if (stored == null) {
            return "";
        }
        for (ReconCategory c : ReconCategory.values()) {
            if (stored.equals("repairing " + c.label())) { // i18n-ok: stored text
                return Messages.format("repair.phase.repairing", Messages.get(c.wordsKey()));
            }
        }
        String key = PHASES.get(stored);
        return key == null ? stored : Messages.get(key);
    }

    /**
     * @param stored why one finding's repair failed, as the service lists it: "ORDER_ID: reason" in English
     * @return it in the language in use when the reason is one the repairs give, else as stored; "" for null
     */
    public static String error(String stored) {
        if (stored == null) {
            return "";
        }
        int colon = stored.indexOf(": ");
        String known = colon < 0 ? null : known(stored.substring(colon + 2));
        return known == null ? stored : stored.substring(0, colon + 2) + known;
    }

    /** @return a category's English label in the language in use, the label itself when no category has it */
    private static String category(String label) {
        for (ReconCategory c : ReconCategory.values()) {
            if (c.label().equals(label)) {
                return Messages.get(c.wordsKey());
            }
        }
        return label;
    }

    private static String detailOf(String text) {
        String known = known(text);
        return known == null ? times(text) : known;
    }

    /** @return a known phrase in the language in use, null when the text is none of them */
    private static String known(String text) {
        for (Phrase p : PHRASES) {
            Matcher m = p.pattern.matcher(text);
            if (m.matches()) {
                Object[] args = new Object[p.args.size()];
                for (int i = 0; i < args.length; i++) {
                    args[i] = p.args.get(i).apply(m.group(i + 1));
                }
                return Messages.format(p.key, args);
            }
        }
        return null;
    }

    /** @return a state in words ("PAID v2" → "已支付 v2"), a malformed record's hash with its times converted */
    private static String state(String s) {
        if ("no Redis state".equals(s)) { // i18n-ok: stored text
            return Messages.get("repair.text.noRedis");
        }
        if ("no MySQL record".equals(s)) { // i18n-ok: stored text
            return Messages.get("repair.text.noMysql");
        }
        if (s.startsWith(MALFORMED_HEAD) && s.endsWith(")")) {
            return Messages.format("repair.text.malformed", times(s.substring(MALFORMED_HEAD.length(), s.length() - 1)));
        }
        Matcher m = STATUS_VERSION.matcher(s);
        if (m.matches()) {
            try {
                return Messages.format("repair.text.state", OrderText.status(OrderStatus.valueOf(m.group(1))), m.group(2));
            } catch (IllegalArgumentException notAStatus) {
                return times(s);
            }
        }
        return times(s);
    }

    /**
     * @param text any text
     * @return it with every epoch-millisecond field ("updateTime=1511380740000") and ISO-8601 instant as a local date-time
     */
    public static String times(String text) {
        if (text == null) {
            return "";
        }
        String t = EPOCH_FIELD.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + "=" + epochMs(m.group(2))));
        t = EPOCH_NAMED.matcher(t).replaceAll(m -> Matcher.quoteReplacement("(" + epochMs(m.group(1)) + ")"));
        return INSTANT.matcher(t).replaceAll(m -> {
            try {
                return Matcher.quoteReplacement(Formats.dateTime(Instant.parse(m.group()).toEpochMilli()));
            } catch (DateTimeParseException e) {
                return Matcher.quoteReplacement(m.group());
            }
        });
    }

    private static String epochMs(String digits) {
        if ("none".equals(digits)) { // i18n-ok: stored text
            return Messages.get("repair.text.noDeadline");
        }
        try {
            return Formats.dateTime(Long.parseLong(digits));
        } catch (NumberFormatException e) {
            return digits;
        }
    }

    /** A stored English phrase, the key that says it, and how each captured group becomes an argument. */
    private record Phrase(Pattern pattern, String key, List<Function<String, String>> args) {
        @SafeVarargs
        Phrase(String regex, String key, Function<String, String>... args) {
            this(Pattern.compile(regex), key, List.of(args));
        }
    }
}

package com.orderconsole.service.importer;

import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PushbackReader;
import java.io.Reader;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the Olist orders CSV: checks each row and derives the history its order went through, or records why the row
 * is refused. One instance per import (it remembers the ids seen, to refuse one repeated in the file). Split from
 * {@link OlistImporter}, which writes what this reads: the format's rules (columns, status mapping, dates, history)
 * change with the data set, the writing with the store.
 *
 * <p><b>Columns</b> (by header name, any order, more columns allowed): order_id, customer_id,
 * order_status, order_purchase_timestamp, order_approved_at, order_delivered_carrier_date,
 * order_delivered_customer_date, order_estimated_delivery_date. Timestamps are accepted as published
 * ({@code yyyy-MM-dd HH:mm:ss}) and as commonly re-saved by spreadsheets ({@code M/d/yyyy H:mm}), and are
 * read as Brazilian local time ({@link #OLIST_ZONE}).
 *
 * <p><b>Status mapping</b> (Olist → ours): created → WAIT_PAY; approved → PAID; invoiced, processing →
 * WAIT_SHIP; shipped → SHIPPED; delivered → FINISHED; canceled, unavailable → CANCELLED.
 *
 * <p><b>History</b>: each order gets one history entry per status it went through, all "applied",
 * actor and source "import", versions 1..n (the order's version is n, as if the transitions had run):
 * WAIT_PAY at the purchase time; PAID at order_approved_at; WAIT_SHIP also at order_approved_at (Olist
 * has no invoice timestamp); SHIPPED at order_delivered_carrier_date; FINISHED at
 * order_delivered_customer_date. A cancelled order goes through PAID when it has an approval time and
 * through WAIT_SHIP and SHIPPED when it has a carrier date, then to CANCELLED, dated at the latest
 * timestamp of the row (Olist has no cancellation time); such history may contain moves the default
 * rules do not offer (e.g. PAID → CANCELLED): it records what happened at Olist. A missing timestamp
 * takes the time of the step before, and times never go backwards (a step dated earlier than the one
 * before takes that one's time); the entry's reason says so. Event keys are
 * {@code import:<order id>:<version>}, so a re-import inserts nothing.
 *
 * <p><b>Bad rows</b> (missing or invalid id, invalid customer id, unknown status, unparseable or
 * missing purchase date, unparseable other date, wrong column count, id repeated in the file) are
 * skipped and reported with their line number; the rest imports.
 */
final class OlistRows {
    /** The time zone of Olist's timestamps (they are Brazilian local times without an offset). */
    static final ZoneId OLIST_ZONE = ZoneId.of("America/Sao_Paulo");

    static final String ORDER_ID = "order_id";
    static final String CUSTOMER_ID = "customer_id";
    static final String STATUS = "order_status";
    static final String PURCHASED = "order_purchase_timestamp";
    static final String APPROVED = "order_approved_at";
    static final String CARRIER = "order_delivered_carrier_date";
    static final String DELIVERED = "order_delivered_customer_date";
    static final String ESTIMATED = "order_estimated_delivery_date";
    private static final List<String> COLUMNS = List.of(ORDER_ID, CUSTOMER_ID, STATUS, PURCHASED, APPROVED, CARRIER,
            DELIVERED, ESTIMATED);

    private static final Map<String, OrderStatus> STATUS_MAP = new LinkedHashMap<>();

    static {
        STATUS_MAP.put("created", OrderStatus.WAIT_PAY);
        STATUS_MAP.put("approved", OrderStatus.PAID);
        STATUS_MAP.put("invoiced", OrderStatus.WAIT_SHIP);
        STATUS_MAP.put("processing", OrderStatus.WAIT_SHIP);
        STATUS_MAP.put("shipped", OrderStatus.SHIPPED);
        STATUS_MAP.put("delivered", OrderStatus.FINISHED);
        STATUS_MAP.put("canceled", OrderStatus.CANCELLED);
        STATUS_MAP.put("unavailable", OrderStatus.CANCELLED);
    }

    private static final DateTimeFormatter PUBLISHED = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss")
            .withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter RESAVED = DateTimeFormatter.ofPattern("M/d/uuuu H:mm")
            .withResolverStyle(ResolverStyle.STRICT);

    private final Map<String, Integer> columns;
    private final int width;
    private final List<ImportProblem> problems = new ArrayList<>();
    private final Map<String, Long> seen = new HashMap<>();

    /**
     * @param header the CSV's column names
     * @param sourceName file or resource name, for the error
     * @throws IllegalArgumentException when the header lacks a required column
     */
    OlistRows(List<String> header, String sourceName) {
        this.columns = columnIndex(header, sourceName);
        this.width = header.size();
    }

    /** @return the rows refused so far, with their line numbers */
    List<ImportProblem> problems() {
        return problems;
    }

    /** Records that reading stopped at {@code line} (a broken quote cannot be resynchronised). */
    void stopped(long line, String why) {
        problems.add(new ImportProblem(line, "malformed CSV, import stopped here: " + why));
    }

    /** @return a parser over the CSV text (header first, fields trimmed, a leading byte-order mark skipped) */
    static CSVParser parser(Reader reader) throws IOException {
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setTrim(true).get();
        return CSVParser.builder().setReader(skipByteOrderMark(reader)).setFormat(format).get();
    }

    /**
     * Maps an Olist order_status onto ours.
     *
     * @param olistStatus e.g. "delivered" (case-insensitive, surrounding spaces ignored)
     * @return our status, or empty for a status Olist does not define
     */
    static Optional<OrderStatus> mapStatus(String olistStatus) {
        return Optional.ofNullable(olistStatus == null ? null : STATUS_MAP.get(olistStatus.trim().toLowerCase(Locale.ROOT)));
    }

    /**
     * Parses an Olist timestamp in either accepted format.
     *
     * @param text "2017-10-02 10:56:33" or "10/2/2017 10:56"
     * @return epoch milliseconds, reading the text as {@link #OLIST_ZONE} local time
     * @throws DateTimeParseException when the text matches neither format (or is not a real date)
     */
    static long parseTimestamp(String text) {
        LocalDateTime t;
        try {
            t = LocalDateTime.parse(text, PUBLISHED);
        } catch (DateTimeParseException first) {
            t = LocalDateTime.parse(text, RESAVED);
        }
        return t.atZone(OLIST_ZONE).toInstant().toEpochMilli();
    }

    /** Spreadsheets often save UTF-8 with a byte-order mark, which would otherwise become part of "order_id". */
    private static Reader skipByteOrderMark(Reader reader) throws IOException {
        PushbackReader r = new PushbackReader(reader instanceof BufferedReader ? reader : new BufferedReader(reader), 1);
        int first = r.read();
        if (first != -1 && first != '\uFEFF') {
            r.unread(first);
        }
        return r;
    }

    private static Map<String, Integer> columnIndex(List<String> header, String sourceName) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            index.putIfAbsent(header.get(i).trim().toLowerCase(Locale.ROOT), i);
        }
        List<String> missing = COLUMNS.stream().filter(c -> !index.containsKey(c)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(sourceName + ": the header lacks column(s) " + String.join(", ", missing)
                    + " (found: " + String.join(", ", header) + ")");
        }
        return index;
    }

    /**
     * The parser has consumed the record including its line break when the loop body runs, so its line
     * counter stands at the record's last line; a record spanning lines (quoted line breaks) started earlier.
     */
    static long startLine(CSVParser parser, CSVRecord rec) {
        long breaks = 0;
        for (String v : rec) {
            breaks += v.chars().filter(c -> c == '\n').count();
        }
        return parser.getCurrentLineNumber() - breaks;
    }

    /** One step of a derived history. */
    record Step(OrderStatus status, long atMs, String reason) {
    }

    /** A good row, ready to store. */
    record Parsed(String orderId, String customerId, OrderStatus status, List<Step> path) {
    }

    /**
     * @param line the row's first line in the file
     * @return the row as an order with its history, or null when it is refused (the reason is in {@link #problems()})
     */
    Parsed read(CSVRecord rec, long line) {
        for (String v : rec) {
            if (v.indexOf('\uFFFD') >= 0) {
                return problem(line, "not valid UTF-8 text (re-save the file as UTF-8): '" + shorten(v) + "'");
            }
        }
        if (rec.size() != width) {
            return problem(line, "expected " + width + " columns, found " + rec.size());
        }
        String id = rec.get(columns.get(ORDER_ID));
        if (id.isEmpty()) {
            return problem(line, ORDER_ID + " is empty");
        }
        if (!OrderId.isValid(id)) {
            return problem(line, ORDER_ID + " '" + shorten(id)
                    + "' is invalid: use 1-64 ASCII letters, digits, '_' or '-', starting with a letter or digit");
        }
        String customer = rec.get(columns.get(CUSTOMER_ID));
        if (!customer.isEmpty() && !OrderId.isValid(customer)) {
            return problem(line, CUSTOMER_ID + " '" + shorten(customer)
                    + "' is invalid: use 1-64 ASCII letters, digits, '_' or '-', starting with a letter or digit");
        }
        String olistStatus = rec.get(columns.get(STATUS));
        if (olistStatus.isEmpty()) {
            return problem(line, STATUS + " is empty");
        }
        Optional<OrderStatus> status = mapStatus(olistStatus);
        if (status.isEmpty()) {
            return problem(line, "unknown " + STATUS + " '" + shorten(olistStatus) + "' (expected one of "
                    + String.join(", ", STATUS_MAP.keySet()) + ")");
        }
        Map<String, Long> times = new HashMap<>();
        for (String col : List.of(PURCHASED, APPROVED, CARRIER, DELIVERED, ESTIMATED)) {
            String v = rec.get(columns.get(col));
            if (v.isEmpty()) {
                continue;
            }
            try {
                times.put(col, parseTimestamp(v));
            } catch (DateTimeParseException e) {
                return problem(line, col + " '" + shorten(v)
                        + "' is not a date (expected yyyy-MM-dd HH:mm:ss or M/d/yyyy H:mm)");
            }
        }
        if (!times.containsKey(PURCHASED)) {
            return problem(line, PURCHASED + " is empty");
        }
        Long first = seen.putIfAbsent(id, line);
        if (first != null) {
            return problem(line, "duplicate " + ORDER_ID + " " + id + " (first on line " + first + ")");
        }
        return new Parsed(id, customer.isEmpty() ? null : customer, status.get(), path(status.get(), times));
    }

    private Parsed problem(long line, String reason) {
        problems.add(new ImportProblem(line, reason));
        return null;
    }

    private static String shorten(String v) {
        String s = v.length() > 70 ? v.substring(0, 67) + "..." : v;
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }

    /** The statuses the order went through, with times from the row (see the class comment). */
    private static List<Step> path(OrderStatus finalStatus, Map<String, Long> t) {
        List<Step> steps = new ArrayList<>();
        add(steps, OrderStatus.WAIT_PAY, t.get(PURCHASED), PURCHASED, "");
        boolean cancelled = finalStatus == OrderStatus.CANCELLED;
        boolean paid = cancelled ? t.containsKey(APPROVED) || t.containsKey(CARRIER) : finalStatus != OrderStatus.WAIT_PAY;
        boolean shipped = cancelled ? t.containsKey(CARRIER)
                : finalStatus == OrderStatus.SHIPPED || finalStatus == OrderStatus.FINISHED;
        if (paid) {
            add(steps, OrderStatus.PAID, t.get(APPROVED), APPROVED, "");
        }
        if (shipped || finalStatus == OrderStatus.WAIT_SHIP) {
            add(steps, OrderStatus.WAIT_SHIP, t.get(APPROVED), APPROVED, " (Olist has no invoice time)");
        }
        if (shipped) {
            add(steps, OrderStatus.SHIPPED, t.get(CARRIER), CARRIER, "");
        }
        if (finalStatus == OrderStatus.FINISHED) {
            add(steps, OrderStatus.FINISHED, t.get(DELIVERED), DELIVERED, "");
        }
        if (cancelled) {
            Long latest = Stream.of(PURCHASED, APPROVED, CARRIER, DELIVERED).map(t::get).filter(x -> x != null)
                    .max(Long::compare).orElseThrow();
            steps.add(new Step(OrderStatus.CANCELLED, Math.max(latest, steps.get(steps.size() - 1).atMs()),
                    "olist: latest timestamp of the row (Olist has no cancellation time)"));
        }
        return steps;
    }

    /**
     * Appends a step dated by {@code column}; a missing or earlier time takes the previous step's time.
     * The first step (WAIT_PAY) always has its purchase time.
     */
    private static void add(List<Step> steps, OrderStatus status, Long at, String column, String note) {
        long prev = steps.isEmpty() ? Long.MIN_VALUE : steps.get(steps.size() - 1).atMs();
        if (at == null) {
            steps.add(new Step(status, prev, "olist: " + column + " missing, dated at the step before"));
        } else if (at < prev) {
            steps.add(new Step(status, prev, "olist: " + column + " is earlier than the step before, dated at that step"));
        } else {
            steps.add(new Step(status, at, "olist: " + column + note));
        }
    }
}

package com.orderconsole.service.importer;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Access;
import com.orderconsole.service.order.OrderCreator;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * Imports orders from the Olist orders CSV (public Olist Brazilian e-commerce dataset, CC BY-NC-SA 4.0)
 * into MySQL (order rows and status history) and Redis (state through init_order.lua, which never
 * overwrites existing state).
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
 * <p><b>Unpaid orders</b>: an imported WAIT_PAY order gets the payment deadline purchase time + the
 * engine's payment timeout. For Olist's old orders that deadline has passed, so the cancel sweeper
 * cancels them on its next tick (history: "payment timeout" by cancel-sweeper), exactly what it would
 * have done had they been created live.
 *
 * <p><b>Bad rows</b> (missing or invalid id, invalid customer id, unknown status, unparseable or
 * missing purchase date, unparseable other date, wrong column count, id repeated in the file) are
 * skipped and reported with their line number; the rest imports. Orders whose id is already stored
 * are left untouched and counted as duplicates.
 *
 * <p><b>Crash safety</b>: rows are written to MySQL in batches of {@value #CHUNK} (one transaction
 * each) marked "Redis pending", then their Redis state is created in one pipelined round and the rows
 * are marked ready. If the import stops in between, the MySQL follower finishes the Redis state
 * (as for an interrupted creation), and a lookup rebuilds it too.
 */
public final class OlistImporter {
    private static final Logger log = LoggerFactory.getLogger(OlistImporter.class);
    /** Source written to imported history entries (the actor is who imports; "import" for the first-start sample). */
    public static final String ACTOR = "import";
    /** The time zone of Olist's timestamps (they are Brazilian local times without an offset). */
    public static final ZoneId OLIST_ZONE = ZoneId.of("America/Sao_Paulo");
    /** Classpath location of the bundled sample (4,998 orders; licence note next to it). */
    public static final String BUNDLED_SAMPLE = "/data/olist_orders_sample.csv";
    /** Rows per MySQL transaction and per pipelined Redis round. */
    static final int CHUNK = 500;

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

    private final OrderCreator creator;
    private final Database db;
    private final Access access;
    private final Duration paymentTimeout;

    /** Built by the wiring ({@code app.Services}). */
    public OlistImporter(OrderCreator creator, Database db, Access access, Duration paymentTimeout) {
        this.creator = creator;
        this.db = db;
        this.access = access;
        this.paymentTimeout = paymentTimeout;
    }

    /**
     * Imports a CSV file (UTF-8, optional byte-order mark).
     *
     * @param op who imports (role ops or higher)
     * @param csv the file
     * @param progress told after each batch; total is the file's line count minus the header
     * @return counts and the bad rows
     * @throws com.orderconsole.domain.PermissionDeniedException when the role is below ops
     * @throws UncheckedIOException when the file cannot be read
     * @throws IllegalArgumentException when the header lacks a required column (nothing is imported)
     * @throws com.orderconsole.redis.RedisUnavailableException when Redis fails mid-import (rows already in
     *         MySQL get their Redis state from the follower later)
     */
    public ImportReport importCsv(Operator op, Path csv, ImportProgress progress) {
        access.require(op, Role.OPS, "import orders");
        // Lenient decoding: a byte that is not UTF-8 becomes U+FFFD and only its row is refused (see parse),
        // instead of the decoder failing for a whole buffer of good rows.
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE);
        try (Reader r = new BufferedReader(new InputStreamReader(Files.newInputStream(csv), decoder))) {
            return run(op, r, csv.getFileName().toString(), dataLines(csv), progress);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv + ": " + e.getMessage(), e);
        }
    }

    /**
     * Imports CSV text from a reader (not closed here).
     *
     * @param op who imports (role ops or higher)
     * @param reader the CSV text, header first
     * @param sourceName file or resource name, written into the creation entry's reason
     * @param progress told after each batch; total is -1 (unknown) until the last call
     * @return counts and the bad rows
     * @throws com.orderconsole.domain.PermissionDeniedException when the role is below ops
     * @throws IllegalArgumentException when the header lacks a required column (nothing is imported)
     * @throws com.orderconsole.redis.RedisUnavailableException when Redis fails mid-import
     */
    public ImportReport importCsv(Operator op, Reader reader, String sourceName, ImportProgress progress) {
        access.require(op, Role.OPS, "import orders");
        return run(op, reader, sourceName, -1, progress);
    }

    /**
     * Imports the Olist sample bundled with the application ({@link #BUNDLED_SAMPLE}), but only when
     * the orders table is empty: a first start opens on real orders, later starts change nothing.
     *
     * @param progress told after each batch, total known
     * @return the report, or empty when orders exist already (nothing done)
     * @throws IllegalStateException when the sample is missing from the classpath
     */
    public Optional<ImportReport> importBundledSampleIfEmpty(ImportProgress progress) {
        if (db.read(t -> t.orders().countAll()) > 0) {
            return Optional.empty();
        }
        long total;
        try (BufferedReader r = openBundled()) {
            total = Math.max(0, r.lines().count() - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (BufferedReader r = openBundled()) {
            log.info("orders table is empty: importing the bundled Olist sample ({} rows)", total);
            return Optional.of(run(Operator.system(ACTOR), r, "bundled Olist sample", total, progress));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return lines of the file minus the header: the row count when no field holds a line break */
    private static long dataLines(Path csv) throws IOException {
        long lines = 0;
        int last = '\n';
        try (InputStream in = Files.newInputStream(csv)) {
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) > 0; ) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        lines++;
                    }
                }
                last = buf[n - 1];
            }
        }
        if (last != '\n') {
            lines++;
        }
        return Math.max(0, lines - 1);
    }

    private static BufferedReader openBundled() {
        InputStream in = OlistImporter.class.getResourceAsStream(BUNDLED_SAMPLE);
        if (in == null) {
            throw new IllegalStateException("the bundled sample " + BUNDLED_SAMPLE + " is missing from the classpath");
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /**
     * Maps an Olist order_status onto ours.
     *
     * @param olistStatus e.g. "delivered" (case-insensitive, surrounding spaces ignored)
     * @return our status, or empty for a status Olist does not define
     */
    public static Optional<OrderStatus> mapStatus(String olistStatus) {
        return Optional.ofNullable(olistStatus == null ? null : STATUS_MAP.get(olistStatus.trim().toLowerCase(Locale.ROOT)));
    }

    /**
     * Parses an Olist timestamp in either accepted format.
     *
     * @param text "2017-10-02 10:56:33" or "10/2/2017 10:56"
     * @return epoch milliseconds, reading the text as {@link #OLIST_ZONE} local time
     * @throws DateTimeParseException when the text matches neither format (or is not a real date)
     */
    public static long parseTimestamp(String text) {
        LocalDateTime t;
        try {
            t = LocalDateTime.parse(text, PUBLISHED);
        } catch (DateTimeParseException first) {
            t = LocalDateTime.parse(text, RESAVED);
        }
        return t.atZone(OLIST_ZONE).toInstant().toEpochMilli();
    }

    // ---------------------------------------------------------------- the import

    /** One step of a derived history. */
    private record Step(OrderStatus status, long atMs, String reason) {
    }

    /** A good row, ready to store. */
    private record Parsed(String orderId, String customerId, OrderStatus status, List<Step> path) {
    }

    private static final class Run {
        final String sourceReason;
        /** Who imports: the actor of every history entry of the run. */
        final String actor;
        final List<ImportProblem> problems = new ArrayList<>();
        final Map<String, Long> seen = new HashMap<>();
        final List<Parsed> chunk = new ArrayList<>(CHUNK);
        long rowsRead;
        long imported;
        long duplicates;

        Run(Operator op, String sourceName) {
            String name = sourceName == null || sourceName.isBlank() ? "a CSV file" : sourceName;
            if (name.length() > 200) {
                name = "..." + name.substring(name.length() - 200);
            }
            this.sourceReason = "imported from " + name + " by " + op.name();
            this.actor = op.name();
        }
    }

    private ImportReport run(Operator op, Reader reader, String sourceName, long total, ImportProgress progress) {
        long started = System.nanoTime();
        ImportProgress p = progress == null ? ImportProgress.NONE : progress;
        Run run = new Run(op, sourceName);
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setTrim(true).get();
        try (CSVParser parser = CSVParser.builder().setReader(skipByteOrderMark(reader)).setFormat(format).get()) {
            Map<String, Integer> columns = columnIndex(parser.getHeaderNames(), sourceName);
            int width = parser.getHeaderNames().size();
            try {
                for (CSVRecord rec : parser) {
                    run.rowsRead++;
                    long line = startLine(parser, rec);
                    Parsed row = parse(rec, line, width, columns, run);
                    if (row != null) {
                        run.chunk.add(row);
                        if (run.chunk.size() == CHUNK) {
                            flush(run);
                            p.update(run.rowsRead, total);
                        }
                    }
                }
            } catch (UncheckedIOException e) {
                // A broken quote cannot be resynchronised: keep what was read, report where it stopped.
                run.problems.add(new ImportProblem(parser.getCurrentLineNumber(),
                        "malformed CSV, import stopped here: " + e.getCause().getMessage()));
            }
            flush(run);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + sourceName + ": " + e.getMessage(), e);
        }
        p.update(run.rowsRead, run.rowsRead);
        long millis = (System.nanoTime() - started) / 1_000_000;
        log.info("import of {}: {} rows read, {} imported, {} already stored, {} bad rows, {} ms", sourceName,
                run.rowsRead, run.imported, run.duplicates, run.problems.size(), millis);
        return new ImportReport(run.rowsRead, run.imported, run.duplicates, run.problems, millis);
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
    private static long startLine(CSVParser parser, CSVRecord rec) {
        long breaks = 0;
        for (String v : rec) {
            breaks += v.chars().filter(c -> c == '\n').count();
        }
        return parser.getCurrentLineNumber() - breaks;
    }

    private static Parsed parse(CSVRecord rec, long line, int width, Map<String, Integer> columns, Run run) {
        for (String v : rec) {
            if (v.indexOf('\uFFFD') >= 0) {
                return problem(run, line, "not valid UTF-8 text (re-save the file as UTF-8): '" + shorten(v) + "'");
            }
        }
        if (rec.size() != width) {
            return problem(run, line, "expected " + width + " columns, found " + rec.size());
        }
        String id = rec.get(columns.get(ORDER_ID));
        if (id.isEmpty()) {
            return problem(run, line, ORDER_ID + " is empty");
        }
        if (!OrderId.isValid(id)) {
            return problem(run, line, ORDER_ID + " '" + shorten(id)
                    + "' is invalid: use 1-64 ASCII letters, digits, '_' or '-', starting with a letter or digit");
        }
        String customer = rec.get(columns.get(CUSTOMER_ID));
        if (!customer.isEmpty() && !OrderId.isValid(customer)) {
            return problem(run, line, CUSTOMER_ID + " '" + shorten(customer)
                    + "' is invalid: use 1-64 ASCII letters, digits, '_' or '-', starting with a letter or digit");
        }
        String olistStatus = rec.get(columns.get(STATUS));
        if (olistStatus.isEmpty()) {
            return problem(run, line, STATUS + " is empty");
        }
        Optional<OrderStatus> status = mapStatus(olistStatus);
        if (status.isEmpty()) {
            return problem(run, line, "unknown " + STATUS + " '" + shorten(olistStatus) + "' (expected one of "
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
                return problem(run, line, col + " '" + shorten(v)
                        + "' is not a date (expected yyyy-MM-dd HH:mm:ss or M/d/yyyy H:mm)");
            }
        }
        if (!times.containsKey(PURCHASED)) {
            return problem(run, line, PURCHASED + " is empty");
        }
        Long first = run.seen.putIfAbsent(id, line);
        if (first != null) {
            return problem(run, line, "duplicate " + ORDER_ID + " " + id + " (first on line " + first + ")");
        }
        return new Parsed(id, customer.isEmpty() ? null : customer, status.get(), path(status.get(), times));
    }

    private static Parsed problem(Run run, long line, String reason) {
        run.problems.add(new ImportProblem(line, reason));
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

    /** Stores the chunk through the one creation path: MySQL rows and history first, then Redis state. */
    private void flush(Run run) {
        if (run.chunk.isEmpty()) {
            return;
        }
        List<OrderCreator.NewOrder> orders = new ArrayList<>(run.chunk.size());
        for (Parsed r : run.chunk) {
            List<HistoryEntry> history = new ArrayList<>(r.path().size());
            for (int i = 0; i < r.path().size(); i++) {
                Step st = r.path().get(i);
                String reason = i == 0 ? st.reason() + "; " + run.sourceReason : st.reason();
                history.add(new HistoryEntry(r.orderId(), i == 0 ? null : r.path().get(i - 1).status(), st.status(), i + 1,
                        ResultCode.APPLIED, run.actor, ACTOR, reason, st.atMs(), "import:" + r.orderId() + ":" + (i + 1)));
            }
            orders.add(new OrderCreator.NewOrder(orderRow(r), history));
        }
        run.chunk.clear();
        OrderCreator.Created c = creator.createAll(orders, true);
        if (c.existedInRedis() > 0) {
            // init_order.lua never overwrites; reconciliation shows the difference to the new MySQL rows.
            log.warn("{} imported orders already had Redis state (left as it was)", c.existedInRedis());
        }
        run.duplicates += c.existedInMysql();
        run.imported += c.created().size();
    }

    private OrderRow orderRow(Parsed r) {
        List<Step> path = r.path();
        long created = path.get(0).atMs();
        long since = path.get(path.size() - 1).atMs();
        Long expireAt = r.status() == OrderStatus.WAIT_PAY ? created + paymentTimeout.toMillis() : null;
        return new OrderRow(r.orderId(), r.customerId(), r.status().code(), path.size(), created, since, expireAt, false);
    }
}

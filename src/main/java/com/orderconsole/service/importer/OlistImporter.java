package com.orderconsole.service.importer;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Access;
import com.orderconsole.service.order.OrderCreator;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Imports orders from the Olist orders CSV (public Olist Brazilian e-commerce dataset, CC BY-NC-SA 4.0)
 * into MySQL (order rows and status history) and Redis (state through init_order.lua, which never
 * overwrites existing state).
 *
 * <p>What a row must hold, how its status maps onto ours and which history it gets: {@link OlistRows}. Orders
 * whose id is already stored are left untouched and counted as duplicates.
 *
 * <p><b>Unpaid orders</b>: an imported WAIT_PAY order gets the payment deadline purchase time + the
 * engine's payment timeout. For Olist's old orders that deadline has passed, so the cancel sweeper
 * cancels them on its next tick (history: "payment timeout" by cancel-sweeper), exactly what it would
 * have done had they been created live.
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
    /** Classpath location of the bundled sample (4,998 orders; licence note next to it). */
    public static final String BUNDLED_SAMPLE = "/data/olist_orders_sample.csv";
    /** Rows per MySQL transaction and per pipelined Redis round. */
    static final int CHUNK = 500;

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
        // Lenient decoding: a byte that is not UTF-8 becomes U+FFFD and only its row is refused (see OlistRows#read),
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

    /**
     * The count an import of the file would be confirmed with on production, read before anything is imported.
     *
     * @param csv the file
     * @return its lines minus the header: the data rows when no field holds a line break
     * @throws UncheckedIOException when the file cannot be read
     */
    public static long dataRows(Path csv) {
        try {
            return dataLines(csv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv + ": " + e.getMessage(), e);
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

    // ---------------------------------------------------------------- the import

    /** One import's running state: the rows read so far and the chunk not yet written. */
    private static final class Run {
        final String sourceReason;
        /** Who imports: the actor of every history entry of the run. */
        final String actor;
        final List<OlistRows.Parsed> chunk = new ArrayList<>(CHUNK);
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
        List<ImportProblem> problems;
        try (CSVParser parser = OlistRows.parser(reader)) {
            OlistRows rows = new OlistRows(parser.getHeaderNames(), sourceName);
            problems = rows.problems();
            try {
                for (CSVRecord rec : parser) {
                    run.rowsRead++;
                    OlistRows.Parsed row = rows.read(rec, OlistRows.startLine(parser, rec));
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
                rows.stopped(parser.getCurrentLineNumber(), e.getCause().getMessage());
            }
            flush(run);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + sourceName + ": " + e.getMessage(), e);
        }
        p.update(run.rowsRead, run.rowsRead);
        long millis = (System.nanoTime() - started) / 1_000_000;
        log.info("import of {}: {} rows read, {} imported, {} already stored, {} bad rows, {} ms", sourceName,
                run.rowsRead, run.imported, run.duplicates, problems.size(), millis);
        return new ImportReport(run.rowsRead, run.imported, run.duplicates, problems, millis);
    }

    /** Stores the chunk through the one creation path: MySQL rows and history first, then Redis state. */
    private void flush(Run run) {
        if (run.chunk.isEmpty()) {
            return;
        }
        List<OrderCreator.NewOrder> orders = new ArrayList<>(run.chunk.size());
        for (OlistRows.Parsed r : run.chunk) {
            List<HistoryEntry> history = new ArrayList<>(r.path().size());
            for (int i = 0; i < r.path().size(); i++) {
                OlistRows.Step st = r.path().get(i);
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

    private OrderRow orderRow(OlistRows.Parsed r) {
        List<OlistRows.Step> path = r.path();
        long created = path.get(0).atMs();
        long since = path.get(path.size() - 1).atMs();
        Long expireAt = r.status() == OrderStatus.WAIT_PAY ? created + paymentTimeout.toMillis() : null;
        return new OrderRow(r.orderId(), r.customerId(), r.status().code(), path.size(), created, since, expireAt, false);
    }
}

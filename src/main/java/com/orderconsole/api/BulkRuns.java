package com.orderconsole.api;

import com.orderconsole.domain.Operator;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkCounts;
import com.orderconsole.service.bulk.BulkPreview;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The bulk moves of this serve's API, in memory: the last {@link #KEPT} previews (a run moves the orders a preview saw,
 * compare-and-set on the versions it read) and the last {@link #KEPT} runs with their progress. Runs go on in the
 * background, two at most at once; cancelling one stops it before its next chunk.
 */
final class BulkRuns implements AutoCloseable {
    static final int KEPT = 20;

    /** What a run does: the apply, told its progress and polled for a stop. */
    @FunctionalInterface
    interface Apply {
        BulkBatch apply(Run run);
    }

    /** One run: who started it, how far it is, and its batch once ended. */
    static final class Run {
        private final String id;
        private final String startedBy;
        private final BulkPreview preview;
        private final long startedAtMs = System.currentTimeMillis();
        private volatile int done;
        private volatile int total;
        private volatile BulkCounts counts = BulkCounts.ZERO;
        private volatile boolean cancelled;
        private volatile BulkBatch batch;
        private volatile String failure;

        private Run(String id, String startedBy, BulkPreview preview) {
            this.id = id;
            this.startedBy = startedBy;
            this.preview = preview;
            this.total = preview.matched();
        }

        String id() {
            return id;
        }

        BulkPreview preview() {
            return preview;
        }

        /** Told after every chunk. */
        void progress(int done, int total, BulkCounts counts) {
            this.done = done;
            this.total = total;
            this.counts = counts;
        }

        /** @return true once a cancel was asked: the apply stops before its next chunk */
        boolean cancelled() {
            return cancelled;
        }

        void cancel() {
            cancelled = true;
        }

        /** @return "running", "cancelling", "done", "cancelled", "failed" (the batch's state once it ended) */
        String state() {
            BulkBatch b = batch;
            if (b != null) {
                return b.state().name().toLowerCase(java.util.Locale.ROOT);
            }
            return failure != null ? "failed" : cancelled ? "cancelling" : "running";
        }

        Map<String, Object> document() {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("id", id);
            doc.put("state", state());
            doc.put("startedBy", startedBy);
            doc.put("startedAt", Instant.ofEpochMilli(startedAtMs).toString());
            doc.put("target", preview.target().name());
            doc.put("override", preview.override());
            doc.put("done", done);
            doc.put("total", total);
            BulkCounts c = counts;
            doc.put("counts", Map.of("applied", c.applied(), "rejected", c.rejected(), "conflicts", c.conflicts(), "failed", c.failed()));
            BulkBatch b = batch;
            doc.put("batchId", b == null ? null : b.id());
            doc.put("failure", failure);
            return doc;
        }
    }

    private final ExecutorService workers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "api-bulk");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, BulkPreview> previews = new LinkedHashMap<>();
    private final Map<String, Run> runs = new LinkedHashMap<>();

    /** @return the id under which the preview is kept */
    synchronized String keep(BulkPreview preview) {
        String id = newId();
        previews.put(id, preview);
        trim(previews);
        return id;
    }

    /**
     * @return the preview of that id
     * @throws ApiProblem 404 when this serve keeps none of that id
     */
    synchronized BulkPreview preview(String id) {
        BulkPreview p = previews.get(id);
        if (p == null) {
            throw ApiProblem.notFound("no bulk preview " + JsonBody.printable(id) + " on this serve (it keeps its last " + KEPT
                    + ", in memory): preview again with POST /v1/bulk-moves/previews");
        }
        return p;
    }

    /** Starts a run of a preview in the background. */
    synchronized Run start(Operator who, BulkPreview preview, Apply apply) {
        Run run = new Run(newId(), who.name(), preview);
        runs.put(run.id, run);
        trim(runs);
        workers.execute(() -> {
            try {
                run.batch = apply.apply(run);
            } catch (RuntimeException e) {
                run.failure = com.orderconsole.domain.Failures.message(e);
            }
        });
        return run;
    }

    /**
     * @return the run of that id
     * @throws ApiProblem 404 when this serve has none of that id
     */
    synchronized Run run(String id) {
        Run r = runs.get(id);
        if (r == null) {
            throw ApiProblem.notFound("no bulk move " + JsonBody.printable(id) + " on this serve (it keeps its last " + KEPT
                    + ", in memory; every batch stays recorded in MySQL)");
        }
        return r;
    }

    private static String newId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private static <V> void trim(Map<String, V> m) {
        while (m.size() > KEPT) {
            m.remove(m.keySet().iterator().next());
        }
    }

    /** Stops the runs under way at their next chunk. */
    @Override
    public void close() {
        synchronized (this) {
            runs.values().forEach(Run::cancel);
        }
        workers.shutdown();
    }
}

package com.orderconsole.api;

import com.orderconsole.domain.Operator;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The reconciliations this serve ran for the API, in memory: one runs at a time (a comparison reads every order), and
 * the last {@link #KEPT} are kept with their reports so their findings can be read and repaired.
 */
final class ReconRuns implements AutoCloseable {
    /** Runs kept, the oldest dropped first. */
    static final int KEPT = 10;

    /** What a run does: the comparison, told its progress and polled for a stop. */
    @FunctionalInterface
    interface Compare {
        ReconReport run(ReconProgress progress, BooleanSupplier cancelled);
    }

    /** One run: who started it, how far it is, and its report once done. */
    static final class Run {
        private final String id;
        private final String startedBy;
        private final long startedAtMs = System.currentTimeMillis();
        private volatile String phase = "starting";
        private volatile long done;
        private volatile long total;
        private volatile ReconReport report;
        private volatile String failure;
        private volatile boolean cancelRequested;

        private Run(String id, String startedBy) {
            this.id = id;
            this.startedBy = startedBy;
        }

        String id() {
            return id;
        }

        /** Asks a running comparison to stop at its next page; a finished run stays as it is. */
        void cancel() {
            cancelRequested = true;
        }

        /** @return "running", "done", "cancelled" or "failed" */
        String state() {
            return failure != null ? "failed" : report == null ? "running" : report.cancelled() ? "cancelled" : "done";
        }

        /**
         * @return the report of a finished run
         * @throws ApiProblem 409 while it runs or when it failed
         */
        ReconReport report() {
            ReconReport r = report;
            if (r == null) {
                throw ApiProblem.conflict(failure != null ? "reconciliation " + id + " failed: " + failure + "; start another"
                        : "reconciliation " + id + " is still running (" + phase + ", " + done + " of about " + total + "): ask "
                        + "GET /v1/reconciliations/" + id + " until its state is done");
            }
            return r;
        }

        Map<String, Object> document() {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("id", id);
            doc.put("state", state());
            doc.put("startedBy", startedBy);
            doc.put("startedAt", Instant.ofEpochMilli(startedAtMs).toString());
            doc.put("progress", Map.of("phase", phase, "done", done, "total", total));
            ReconReport r = report;
            doc.put("failure", failure);
            if (r != null) {
                Map<String, Long> counts = new LinkedHashMap<>();
                for (ReconCategory c : ReconCategory.values()) {
                    counts.put(c.name(), r.counts().getOrDefault(c, 0L));
                }
                doc.put("counts", counts);
                doc.put("total", r.total());
                doc.put("ordersCompared", r.ordersCompared());
                doc.put("millis", r.millis());
                doc.put("filtered", r.filtered());
            } else {
                doc.put("counts", null);
                doc.put("total", null);
                doc.put("ordersCompared", null);
                doc.put("millis", null);
                doc.put("filtered", null);
            }
            return doc;
        }
    }

    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "api-reconciliation");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Run> runs = new LinkedHashMap<>();
    private volatile boolean closed;

    /**
     * @return the run started now
     * @throws ApiProblem 409 when one is running already (its id in the words)
     */
    synchronized Run start(Operator who, Compare compare) {
        for (Run r : runs.values()) {
            if (r.state().equals("running")) {
                throw ApiProblem.conflict("reconciliation " + r.id + " is running (started by " + r.startedBy + "); follow it with "
                        + "GET /v1/reconciliations/" + r.id + " or start another once it is done");
            }
        }
        Run run = new Run(UUID.randomUUID().toString().substring(0, 8), who.name());
        runs.put(run.id, run);
        while (runs.size() > KEPT) {
            runs.remove(runs.keySet().iterator().next());
        }
        worker.execute(() -> {
            try {
                run.report = compare.run((phase, done, total) -> {
                    run.phase = phase;
                    run.done = done;
                    run.total = total;
                }, () -> closed || run.cancelRequested);
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
    synchronized Run get(String id) {
        Run r = runs.get(id);
        if (r == null) {
            throw ApiProblem.notFound("no reconciliation " + JsonBody.printable(id) + " on this serve (it keeps its last " + KEPT
                    + " and forgets them when it stops): start one with POST /v1/reconciliations");
        }
        return r;
    }

    /** Stops a run under way at its next page, and the worker. */
    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
    }
}

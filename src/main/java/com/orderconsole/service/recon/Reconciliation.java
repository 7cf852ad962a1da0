package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.service.order.OrderQuery;

import java.io.Writer;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Reconciliation of Redis with MySQL: compare, dry-run a repair, repair, export the findings. Implemented in-process by
 * {@link ReconciliationService} and over serve's HTTP API (which polls serve's run and calls the progress listener).
 */
public interface Reconciliation {
    /**
     * One planned repair of a dry run.
     *
     * @param orderId the order ("" for per-bucket repairs)
     * @param direction what is copied where, e.g. "MySQL → Redis"
     * @param resulting the state after the repair, e.g. "PAID v2"
     */
    record RepairStep(String orderId, String direction, String resulting) {
    }

    /**
     * Runs a comparison (read-only: changes nothing).
     *
     * @param filter only orders matching this (MySQL side), or null for all orders, Redis-only orders and the queues
     * @param progress told after every page
     * @param cancelled polled after every page; when it returns true the run stops and returns what it found so far
     * @return the report
     */
    ReconReport run(OrderQuery filter, ReconProgress progress, BooleanSupplier cancelled);

    /**
     * Dry run of a repair.
     *
     * @param report a report from {@link #run}
     * @param category which category
     * @return how many findings a repair of this category would act on
     */
    long preview(ReconReport report, ReconCategory category);

    /**
     * Dry run of a repair, per finding (changes nothing).
     *
     * @param report a report from {@link #run}
     * @param category which category
     * @return the steps a repair of this category would take, in report order
     */
    List<RepairStep> plan(ReconReport report, ReconCategory category);

    /**
     * Repairs the findings of one category of a report (role ops; copying Redis-only orders into MySQL is an admin
     * override and needs a reason). Each repair re-reads the current state first; every repair is audited.
     *
     * @param operator who repairs
     * @param report a report from {@link #run}
     * @param category which category
     * @param reason why ("" when none; required for MISSING_IN_MYSQL)
     * @param progress told after every finding
     * @param cancelled polled after every finding
     * @return what was done
     * @throws com.orderconsole.domain.PermissionDeniedException when the role is insufficient
     * @throws IllegalArgumentException when a required reason is missing, in words
     */
    RepairResult repair(Operator operator, ReconReport report, ReconCategory category, String reason, ReconProgress progress,
                        BooleanSupplier cancelled);

    /**
     * Writes the kept findings as CSV: category, order_id, mysql_status, mysql_version, redis_status, redis_version,
     * detail (header line first).
     *
     * @param report a report from {@link #run}
     * @param out where to write; closed when done
     * @throws java.io.UncheckedIOException when writing fails
     */
    void exportCsv(ReconReport report, Writer out);
}

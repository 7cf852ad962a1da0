/**
 * The service layer the console and the CLI share, one sub-package per capability (transition, order, follower,
 * queue, rules, recon, importer, monitor, metrics, traffic, bulk, audit, deadletter, maintenance); {@code app.Services}
 * wires them. This root package holds only the small helpers every capability uses — role checks
 * ({@link com.orderconsole.service.Access}), the audit trail, the daemon scheduler, the log limiter — and depends on
 * no capability (an architecture test says so). JavaFX-free.
 */
package com.orderconsole.service;

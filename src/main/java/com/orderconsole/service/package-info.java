/**
 * The service layer the console and the CLI share: {@link com.orderconsole.service.Services} wires one room
 * per capability (transition, order, follower, queue, rules, recon, importer, monitor, traffic); role checks
 * ({@link com.orderconsole.service.Access}) and maintenance are cross-cutting and live here. JavaFX-free.
 */
package com.orderconsole.service;

/**
 * Bulk transitions: one target status for many orders (a selection or a filter), previewed read-only, then
 * applied order by order through the transition script with compare-and-set on the version the preview saw;
 * every batch and its per-order results are kept in MySQL ({@code bulk_batch}, {@code bulk_item}).
 */
package com.orderconsole.service.bulk;

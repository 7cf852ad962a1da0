/**
 * The audit view: every recorded action across orders — the order history (transitions and rejected attempts,
 * by whom and from where) and the audit log (queue, repair, rules and dead-letter actions) — filtered and
 * keyset-paged newest first, exportable as CSV and JSON. Reads only.
 */
package com.orderconsole.service.audit;

package com.orderconsole.service.audit;

import java.util.List;

/**
 * One page of the audit view.
 *
 * @param rows newest first
 * @param nextCursor opaque keyset position of the next page, null when this is the last
 */
public record AuditPage(List<AuditEvent> rows, String nextCursor) {
}

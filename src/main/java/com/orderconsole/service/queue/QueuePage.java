package com.orderconsole.service.queue;

import java.util.List;

/**
 * One page of the cancel queue in expiry order ({@link QueueService#page}).
 *
 * @param items the entries, earliest deadline first (ties by order id)
 * @param nextCursor where the next page starts ("deadline-ms:order-id", opaque to callers), null when none follows
 */
public record QueuePage(List<QueueItem> items, String nextCursor) {
    public QueuePage {
        items = List.copyOf(items);
    }
}

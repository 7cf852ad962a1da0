package com.orderconsole.service.queue;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The cancel queue paged by keyset on (deadline, order id) across buckets: every entry once, in Redis's own order,
 * however many share a deadline (a trial found the queue page listing only the 200 soonest, with no way further).
 */
class QueuePagingTest {
    @RegisterExtension
    final FreshEngine fresh = new FreshEngine();

    @Test
    void pagesReachEveryEntryOnceInDeadlineThenIdOrder() {
        Services s = fresh.services();
        List<QueueItem> planted = new ArrayList<>();
        try (RawRedis raw = new RawRedis()) {
            for (int i = 0; i < 450; i++) {
                String id = "q-" + i;
                // Three deadlines only: most pages start and end inside a run of equal deadlines.
                long deadline = 4_000_000_000_000L + (i % 3) * 1000L;
                raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket(id)), deadline, id);
                planted.add(new QueueItem(id, deadline, 0, null, true));
            }
        }
        planted.sort(Comparator.comparingLong(QueueItem::expireAtMs).thenComparing(QueueItem::orderId));

        List<String> seen = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        String cursor = null;
        do {
            QueuePage p = s.queue().page(cursor, 200);
            sizes.add(p.items().size());
            p.items().forEach(i -> seen.add(i.orderId()));
            cursor = p.nextCursor();
        } while (cursor != null);
        assertThat(sizes).containsExactly(200, 200, 50);
        assertThat(seen).containsExactlyElementsOf(planted.stream().map(QueueItem::orderId).toList());
        assertThat(new HashSet<>(seen)).hasSize(450);

        // An entry removed between two pages moves no other entry to another page (an offset would skip one).
        QueuePage first = s.queue().page(null, 200);
        try (RawRedis raw = new RawRedis()) {
            String gone = first.items().get(0).orderId();
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket(gone)), gone);
        }
        Set<String> second = new HashSet<>(s.queue().page(first.nextCursor(), 200).items().stream().map(QueueItem::orderId).toList());
        assertThat(second).containsExactlyInAnyOrderElementsOf(seen.subList(200, 400));
    }

    @Test
    void anEntryIsFoundByItsOrderIdAndABadCursorOrIdIsRefusedInWords() {
        Services s = fresh.services();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("find-me")), 4_000_000_000_000L, "find-me");
        }
        assertThat(s.queue().find("find-me")).hasValueSatisfying(i -> assertThat(i.expireAtMs()).isEqualTo(4_000_000_000_000L));
        assertThat(s.queue().find("not-queued")).isEmpty();
        assertThatThrownBy(() -> s.queue().find("a*b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a*b");
        assertThatThrownBy(() -> s.queue().page("nonsense", 10)).hasMessage("malformed queue page cursor");
        assertThatThrownBy(() -> s.queue().page(null, 0)).hasMessage("page size must be 1..1000, got 0");
    }
}

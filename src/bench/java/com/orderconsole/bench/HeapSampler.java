package com.orderconsole.bench;

import com.sun.management.GarbageCollectionNotificationInfo;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches the heap during a run: used heap sampled from MemoryMXBean every few milliseconds (the
 * peak, garbage included) and the heap left after each garbage collection (the live data, which is
 * what grows when a run keeps per-order state).
 */
final class HeapSampler implements AutoCloseable {
    private static final long PERIOD_MS = 10;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Thread thread;
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener onGc = this::gcDone;
    private final Set<String> heapPools = new HashSet<>();
    private volatile boolean running = true;
    private volatile long peak;
    private volatile long maxAfterGc;
    private volatile int gcs;

    HeapSampler() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                heapPools.add(p.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e) {
                e.addNotificationListener(onGc, null, null);
                emitters.add(e);
            }
        }
        thread = new Thread(() -> {
            while (running) {
                peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void gcDone(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long after = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                after += e.getValue().getUsed();
            }
        }
        synchronized (this) {
            maxAfterGc = Math.max(maxAfterGc, after);
            gcs++;
        }
    }

    /** Stops watching; call before reading the figures. */
    @Override
    public void close() {
        running = false;
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(onGc);
            } catch (ListenerNotFoundException ignored) {
                // already removed
            }
        }
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return peak used heap, garbage included, bytes */
    long peak() {
        return peak;
    }

    /** @return heap left after the last collection before now (sum of heap pools' collection usage), bytes */
    static long liveAfterLastGc() {
        long used = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getCollectionUsage() != null) {
                used += p.getCollectionUsage().getUsed();
            }
        }
        return used;
    }

    /** @return the largest heap left after any collection during the run, bytes */
    synchronized long maxAfterGc() {
        return maxAfterGc;
    }

    /** @return collections during the run */
    synchronized int collections() {
        return gcs;
    }
}

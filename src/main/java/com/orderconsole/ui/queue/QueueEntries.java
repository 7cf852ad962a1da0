package com.orderconsole.ui.queue;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderId;
import com.orderconsole.service.queue.CancelQueue;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueuePage;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Job;
import com.orderconsole.ui.common.KeysetPager;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The cancel-queue page's table: the whole queue in expiry order a page at a time (keyset on deadline and order id), or
 * the entry of one order searched by id, and the words saying which entries are shown out of how many.
 */
final class QueueEntries {
    private final CancelQueue queue;
    private final Feedback feedback;
    private final Supplier<QueueSummary> summary;
    private final KeysetPager<QueueItem> pager;
    private final StringProperty idText = new SimpleStringProperty("");
    /** The id searched for, null while the whole queue is listed. */
    private final ReadOnlyStringWrapper searched = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper countText = new ReadOnlyStringWrapper("");

    /**
     * @param queue reads the pages and single entries
     * @param background where the pages are read
     * @param feedback where a malformed id is refused in words
     * @param summary the page's last reading of the queue (its depth goes into the count), null before the first
     * @param readFailed told, in words, when a page could not be read
     */
    QueueEntries(CancelQueue queue, Background background, Feedback feedback, Supplier<QueueSummary> summary,
                 Consumer<String> readFailed) {
        this.queue = queue;
        this.feedback = feedback;
        this.summary = summary;
        this.pager = new KeysetPager<>(background, this::readPage, Messages.get("queue.read.action"), QueueItem::orderId,
                this::pageShown, readFailed);
    }

    /** Reads the page shown again. */
    void refresh() {
        pager.refresh();
    }

    /**
     * A page as read: under traffic the sweeper may have cancelled every entry of a later page meanwhile; an empty
     * page after the first goes back to the first rather than saying "the cancel queue is empty" beside a depth of 300.
     */
    private void pageShown(List<QueueItem> rows) {
        if (rows.isEmpty() && pager.pageNumberProperty().get() > 1 && searched.get() == null) {
            pager.first(this::readPage);
            return;
        }
        showCount();
    }

    /**
     * Lists the entry of the order in the id field, or the whole queue again when the field is empty; an id no order
     * can have is refused in words and the table is left as it was.
     */
    void search() {
        String id = idText.get() == null ? "" : idText.get().strip();
        if (!id.isEmpty()) {
            try {
                OrderId.require(id);
            } catch (IllegalArgumentException e) {
                feedback.error(e.getMessage());
                return;
            }
        }
        feedback.clear();
        searched.set(id.isEmpty() ? null : id);
        pager.first(this::readPage);
    }

    /** Lists the whole queue again from its first page (the id field is emptied). */
    void showAll() {
        idText.set("");
        search();
    }

    /** The page the pager asks for: the searched order's entry alone, or a page of the whole queue. */
    private KeysetPager.Page<QueueItem> readPage(String cursor, Job job) {
        String id = searched.get();
        if (id != null) {
            return new KeysetPager.Page<>(queue.find(id).map(List::of).orElse(List.of()), null);
        }
        QueuePage p = queue.page(cursor, CancelQueueViewModel.PAGE_SIZE);
        return new KeysetPager.Page<>(p.items(), p.nextCursor());
    }

    /** Says which entries the table shows out of how many, e.g. "Entries 201-400 of 1,234". */
    void showCount() {
        int shown = pager.rows().size();
        QueueSummary s = summary.get();
        if (searched.get() != null) {
            countText.set(shown == 0 ? Messages.format("queue.search.none", searched.get()) : Messages.format("queue.search.found", searched.get()));
        } else if (shown == 0) {
            countText.set("");
        } else {
            long first = (long) (pager.pageNumberProperty().get() - 1) * CancelQueueViewModel.PAGE_SIZE + 1;
            long last = first + shown - 1;
            // Pages are read by keyset, at different times: under traffic the entries before this page may have been
            // cancelled since, so "201–388" can exceed the depth read now. Then the count says only what is known
            // rather than "of 388" beside a Depth of 312.
            countText.set(s == null ? Messages.format("queue.countPage", first, last)
                    : last <= s.depth() ? Messages.format("queue.count", first, last, s.depth())
                    : Messages.format("queue.countMoved", shown, pager.pageNumberProperty().get(), s.depth()));
        }
    }

    /** @return Previous / Next over the whole queue, with the rows shown and the selected one */
    KeysetPager<QueueItem> pager() {
        return pager;
    }

    /** @return the entry selected, null when none */
    QueueItem selected() {
        return pager.selectedProperty().get();
    }

    StringProperty idTextProperty() {
        return idText;
    }

    ReadOnlyStringProperty countTextProperty() {
        return countText.getReadOnlyProperty();
    }

    ReadOnlyStringProperty searchedProperty() {
        return searched.getReadOnlyProperty();
    }
}

package com.orderconsole.service.order;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;

import java.time.Duration;

/**
 * Orders as the console and the CLI see them: create one, look one up, its story, pages of the order table. Implemented
 * in-process by {@link OrderService} and over serve's HTTP API by the remote services; both give the same records and
 * throw the same exceptions.
 */
public interface Orders {
    /**
     * Creates an order in WAIT_PAY with its cancel-queue entry.
     *
     * @param operator who creates (support or higher)
     * @param orderId a valid id
     * @param customerId optional customer id (same syntax as order ids), may be null
     * @param expireIn time allowed for payment, e.g. 30 minutes
     * @return the created state
     * @throws IllegalArgumentException when the id exists already or an argument is invalid, in words
     * @throws com.orderconsole.domain.PermissionDeniedException below support
     */
    OrderState create(Operator operator, String orderId, String customerId, Duration expireIn);

    /**
     * Looks one order up, reading only: MySQL row, Redis state, history, legal moves.
     *
     * @param orderId a valid id
     * @return the details
     * @throws OrderNotFoundException when neither store knows the order
     * @throws IllegalArgumentException when the id is not a valid order id
     */
    OrderDetails lookup(String orderId);

    /**
     * The story of one order (read-only): MySQL's history, then the steps the outbox still holds for it.
     *
     * @param orderId a valid id
     * @return the story, oldest step first
     * @throws OrderNotFoundException when neither store knows the order
     * @throws IllegalArgumentException when the id is not a valid order id
     */
    OrderStory story(String orderId);

    /**
     * One page of the order table, keyset-paged over MySQL and joined with each row's Redis state.
     *
     * @param q the filter
     * @param cursor null for the first page, else {@link OrderPage#nextCursor()} of the previous page
     * @param limit rows per page, 1..1000
     * @return the page
     * @throws IllegalArgumentException for a bad limit, filter or cursor, in words
     */
    OrderPage page(OrderQuery q, String cursor, int limit);
}

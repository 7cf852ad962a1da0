package com.orderconsole.service.order;

import java.util.List;

/**
 * One page of the order table.
 *
 * @param rows the orders, in the query's order
 * @param nextCursor opaque keyset position for the next page, or null when this is the last page
 */
public record OrderPage(List<OrderSummary> rows, String nextCursor) {
}

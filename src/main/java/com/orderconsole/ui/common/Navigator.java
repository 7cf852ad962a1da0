package com.orderconsole.ui.common;

import com.orderconsole.service.order.OrderQuery;

/** Cross-page navigation, so pages never reach into each other. Implemented by the main window's model. */
public interface Navigator {
    /** Shows the order table with this filter applied (first page). */
    void showOrders(OrderQuery query);

    /** Shows the order table with one order's details opened. */
    void showOrder(String orderId);
}

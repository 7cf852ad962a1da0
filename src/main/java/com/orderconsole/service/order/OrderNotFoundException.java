package com.orderconsole.service.order;

/** No order with that id in MySQL or Redis. */
public class OrderNotFoundException extends RuntimeException {
    public OrderNotFoundException(String orderId) {
        super("order " + orderId + " not found");
    }
}

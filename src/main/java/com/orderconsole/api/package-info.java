/**
 * The HTTP API of {@code serve} (issue 32): the way in for the services that own the orders (a payment gateway's callback,
 * an inventory service following the change feed). A front end beside {@code ui} and {@code cli}: it reaches the service
 * layer through {@code app} only, answers in JSON, and shares the CLI's error shape ({@code app.ErrorDocument}).
 */
package com.orderconsole.api;

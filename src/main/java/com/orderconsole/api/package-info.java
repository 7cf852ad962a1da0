/**
 * The HTTP API of {@code serve}: the way in for the services that own the orders (a payment gateway's callback, an
 * inventory service following the change feed) and for people and tools doing what the console does. A front end beside
 * {@code ui} and {@code cli}: it reaches the service layer through {@code app} only, as the authenticated operator, so
 * the services' role checks are its own; it answers in JSON and shares the CLI's error shape and kinds
 * ({@code app.ErrorDocument}, {@code app.ErrorKind}).
 *
 * <p>Where things are: {@code ApiServer} composes; {@code RequestHandler} and {@code RouteTable} route;
 * {@code Authenticator} says who acts; {@code HttpMapping} and {@code ApiProblem} map failures; one route class per
 * capability ({@code *Routes}), composed by {@code ApiRoutes}.
 */
package com.orderconsole.api;

package com.orderconsole.app.remote;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * A test's browser: opening an address follows it with an HTTP client, as a browser whose person approves at once would:
 * the provider's authorization endpoint redirects to the console's loopback address, whose page is kept for the test.
 * {@code tamper} may change the redirect before it is followed (a forged answer).
 */
public final class BrowserFollower implements BrowserOpener {
    /** The page the console's loopback address showed. */
    public record Page(int status, String body) {
    }

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private final UnaryOperator<URI> tamper;
    public final CompletableFuture<Page> page = new CompletableFuture<>();
    volatile URI opened;

    public BrowserFollower() {
        this(u -> u);
    }

    public BrowserFollower(UnaryOperator<URI> tamper) {
        this.tamper = tamper;
    }

    @Override
    public void open(URI address) {
        opened = address;
        // A browser returns at once and the person acts later: follow on another thread.
        CompletableFuture.runAsync(() -> {
            try {
                HttpResponse<String> auth = http.send(HttpRequest.newBuilder(address).build(), HttpResponse.BodyHandlers.ofString());
                URI back = tamper.apply(URI.create(auth.headers().firstValue("Location").orElseThrow(
                        () -> new IllegalStateException("no redirect: " + auth.statusCode() + " " + auth.body()))));
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(back).build(), HttpResponse.BodyHandlers.ofString());
                page.complete(new Page(r.statusCode(), r.body()));
            } catch (IOException | InterruptedException | RuntimeException e) {
                page.completeExceptionally(e);
            }
        });
    }
}

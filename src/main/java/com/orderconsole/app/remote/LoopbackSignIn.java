package com.orderconsole.app.remote;

import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationErrorResponse;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.orderconsole.app.Messages;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The authorization code grant with PKCE (S256) for a native app (RFC 8252): the console listens on 127.0.0.1 on a port
 * the system picks, opens the system browser at the provider's authorization endpoint, and takes the one answer that
 * comes back to {@code http://127.0.0.1:PORT/callback}. The answer counts only with the state this sign-in sent; the code
 * is exchanged with the verifier only this process knows, and the ID token must carry this sign-in's nonce. The browser
 * tab then says in words whether the person may return to the console or what went wrong.
 */
final class LoopbackSignIn {
    /** The redirect's path; the provider registers {@code http://127.0.0.1/callback} with any port. */
    static final String CALLBACK = "/callback";

    private final OidcProvider provider;
    private final CompletableFuture<OidcSession.Grant> outcome = new CompletableFuture<>();
    private final AtomicBoolean answered = new AtomicBoolean();
    private final CodeVerifier verifier = new CodeVerifier();
    private final State state = new State();
    private final Nonce nonce = new Nonce();
    private URI redirect;

    LoopbackSignIn(OidcProvider provider) {
        this.provider = provider;
    }

    /** Stops a sign-in in progress: {@link #run} ends with "the sign-in was cancelled". */
    void cancel() {
        outcome.completeExceptionally(new CancellationException());
    }

    /**
     * @param opener the browser to open
     * @param whereToGo receives the address opened, so the console can show it when no browser appears
     * @param timeout how long the person has to finish
     * @return the tokens and who signed in
     * @throws SignInRequiredException in words: refused, state differs, ID token wrong, timed out, cancelled, unreachable
     */
    OidcSession.Grant run(BrowserOpener opener, Consumer<URI> whereToGo, Duration timeout) {
        if (provider.metadata.getAuthorizationEndpointURI() == null) {
            throw new SignInRequiredException(Messages.format("oidc.noAuthorizationEndpoint", provider.issuer));
        }
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 8);
        } catch (IOException e) {
            throw new SignInRequiredException(Messages.get("oidc.loopback"), e);
        }
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sign-in-callback");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        redirect = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + CALLBACK);
        server.createContext(CALLBACK, this::callback);
        server.start();
        try {
            URI address = new AuthenticationRequest.Builder(ResponseType.CODE, provider.scope, provider.clientId, redirect)
                    .endpointURI(provider.metadata.getAuthorizationEndpointURI()).state(state).nonce(nonce)
                    .codeChallenge(verifier, CodeChallengeMethod.S256).build().toURI();
            whereToGo.accept(address);
            try {
                opener.open(address);
            } catch (IOException | RuntimeException e) {
                // No browser could be asked: the address handed to whereToGo still works, opened in any browser on this machine.
            }
            return outcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SignInRequiredException(Messages.get("oidc.cancelled"), e);
        } catch (TimeoutException e) {
            throw new SignInRequiredException(Messages.format("oidc.timeout", Math.max(1, timeout.toMinutes())), e);
        } catch (CancellationException e) {
            throw new SignInRequiredException(Messages.get("oidc.cancelled"), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SignInRequiredException s) {
                throw s;
            }
            if (e.getCause() instanceof CancellationException) {
                throw new SignInRequiredException(Messages.get("oidc.cancelled"), e);
            }
            throw new SignInRequiredException(Messages.format("oidc.refused", provider.issuer, Messages.get("oidc.net.other")), e.getCause());
        } finally {
            server.stop(0);
            pool.shutdownNow();
        }
    }

    private void callback(HttpExchange ex) throws IOException {
        if (!"GET".equals(ex.getRequestMethod()) || !CALLBACK.equals(ex.getRequestURI().getPath())) {
            ex.sendResponseHeaders(404, -1);
            ex.close();
            return;
        }
        if (!answered.compareAndSet(false, true)) {
            // Only the first answer counts; a second one (a reload, another tab) changes nothing.
            page(ex, 409, Messages.format("oidc.page.refused", Messages.get("oidc.page.again")));
            return;
        }
        OidcSession.Grant grant = null;
        SignInRequiredException failure = null;
        try {
            grant = exchange(URI.create(redirect + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery())));
        } catch (SignInRequiredException e) {
            failure = e;
        }
        // The page goes out before the outcome is handed over: the loopback server stops right after.
        if (grant != null) {
            page(ex, 200, Messages.format("oidc.page.done", grant.who() == null ? Messages.get("oidc.page.someone") : grant.who().name()));
            outcome.complete(grant);
        } else {
            page(ex, 400, Messages.format("oidc.page.refused", failure.getMessage()));
            outcome.completeExceptionally(failure);
        }
    }

    private OidcSession.Grant exchange(URI answer) {
        AuthorizationResponse response;
        try {
            response = AuthorizationResponse.parse(answer);
        } catch (ParseException e) {
            throw new SignInRequiredException(Messages.get("oidc.state"), e);
        }
        if (!state.equals(response.getState())) {
            throw new SignInRequiredException(Messages.get("oidc.state"));
        }
        if (response instanceof AuthorizationErrorResponse refusal) {
            OidcProvider.Answer a = new OidcProvider.Answer(null, refusal.getErrorObject());
            throw new SignInRequiredException(Messages.format("oidc.refused", provider.issuer, a.words()));
        }
        OidcProvider.Answer a = provider.exchange(new AuthorizationCodeGrant(response.toSuccessResponse().getAuthorizationCode(), redirect,
                verifier));
        if (a.tokens() == null) {
            throw new SignInRequiredException(Messages.format("oidc.refused", provider.issuer, a.words()));
        }
        return new OidcSession.Grant(a.tokens(), provider.who(a.tokens(), nonce));
    }

    private static void page(HttpExchange ex, int status, String text) throws IOException {
        String html = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + escape(Messages.get("oidc.page.title"))
                + "</title></head><body style=\"font-family:sans-serif;margin:3em\"><h1>" + escape(Messages.get("oidc.page.title"))
                + "</h1><p>" + escape(text) + "</p></body></html>";
        byte[] b = html.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}

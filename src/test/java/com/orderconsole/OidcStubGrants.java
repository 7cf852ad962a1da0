package com.orderconsole;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.oauth2.sdk.OAuth2Error;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseMode;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationGrantError;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationRequest;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationSuccessResponse;
import com.nimbusds.oauth2.sdk.device.DeviceCode;
import com.nimbusds.oauth2.sdk.device.DeviceCodeGrant;
import com.nimbusds.oauth2.sdk.device.UserCode;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.openid.connect.sdk.AuthenticationErrorResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.AuthenticationSuccessResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.token.OIDCTokens;
import com.nimbusds.jwt.JWTParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sign-in side of {@link OidcStub}: an authorization endpoint that approves the configured person at once (or refuses,
 * as told), a token endpoint (authorization code with its PKCE verifier checked, refresh token with rotation, device code)
 * and a device authorization endpoint whose polls are answered from a script. Built on the same Nimbus SDK the console
 * uses, as a real provider would parse and answer. Only for the public client {@link OidcStub#PUBLIC_CLIENT} with a
 * loopback redirect on 127.0.0.1 (any port).
 */
final class OidcStubGrants {
    private final OidcStub idp;
    volatile String username = "alice";
    volatile List<String> groups = List.of("console-support");
    volatile ErrorObject refuseAuthorization;
    volatile Duration accessLifetime = Duration.ofMinutes(5);
    volatile int deviceInterval = 5;
    volatile int deviceLifetime = 600;
    final Deque<String> deviceScript = new ArrayDeque<>();
    final AtomicInteger refreshes = new AtomicInteger();
    final List<Instant> devicePolls = new CopyOnWriteArrayList<>();
    /** Every code and token value handed out, so a test can look for them where they must never be. */
    final List<String> issued = new CopyOnWriteArrayList<>();

    private record Pending(URI redirect, CodeChallenge challenge, String nonce, String username, List<String> groups) {
    }

    private record Person(String username, List<String> groups) {
    }

    private final Map<String, Pending> codes = new ConcurrentHashMap<>();
    final Map<String, Person> refreshTokens = new ConcurrentHashMap<>();
    private final Map<String, Person> deviceCodes = new ConcurrentHashMap<>();

    OidcStubGrants(OidcStub idp) {
        this.idp = idp;
    }

    void install(HttpServer s, String base) {
        s.createContext(base + "/auth", this::authorize);
        s.createContext(base + "/token", this::token);
        s.createContext(base + "/device", this::device);
    }

    private void authorize(HttpExchange ex) throws IOException {
        AuthenticationRequest req;
        try {
            req = AuthenticationRequest.parse(URI.create("http://stub" + ex.getRequestURI()));
        } catch (ParseException e) {
            page(ex, 400, "bad authorization request: " + e.getMessage());
            return;
        }
        URI redirect = req.getRedirectionURI();
        if (!OidcStub.PUBLIC_CLIENT.equals(req.getClientID().getValue())) {
            page(ex, 400, "unknown client " + req.getClientID());
            return;
        }
        if (redirect == null || !"http".equals(redirect.getScheme()) || !"127.0.0.1".equals(redirect.getHost())) {
            page(ex, 400, "the redirect must be a loopback address on 127.0.0.1, any port: " + redirect);
            return;
        }
        URI answer;
        if (req.getCodeChallenge() == null || !CodeChallengeMethod.S256.equals(req.getCodeChallengeMethod())) {
            answer = new AuthenticationErrorResponse(redirect, OAuth2Error.INVALID_REQUEST.setDescription("PKCE with S256 is required"),
                    req.getState(), ResponseMode.QUERY).toURI();
        } else if (refuseAuthorization != null) {
            answer = new AuthenticationErrorResponse(redirect, refuseAuthorization, req.getState(), ResponseMode.QUERY).toURI();
        } else {
            AuthorizationCode code = new AuthorizationCode();
            issued.add(code.getValue());
            codes.put(code.getValue(), new Pending(redirect, req.getCodeChallenge(), req.getNonce() == null ? null : req.getNonce().getValue(),
                    username, groups));
            answer = new AuthenticationSuccessResponse(redirect, code, null, null, req.getState(), null, ResponseMode.QUERY).toURI();
        }
        ex.getResponseHeaders().set("Location", answer.toString());
        ex.sendResponseHeaders(302, -1);
        ex.close();
    }

    private void token(HttpExchange ex) throws IOException {
        TokenRequest req;
        try {
            req = TokenRequest.parse(formRequest(ex));
        } catch (ParseException e) {
            send(ex, new TokenErrorResponse(OAuth2Error.INVALID_REQUEST.setDescription(e.getMessage())).toHTTPResponse());
            return;
        }
        if (req.getClientID() == null || !OidcStub.PUBLIC_CLIENT.equals(req.getClientID().getValue())) {
            send(ex, new TokenErrorResponse(OAuth2Error.INVALID_CLIENT).toHTTPResponse());
            return;
        }
        GrantType type = req.getAuthorizationGrant().getType();
        if (type.equals(GrantType.AUTHORIZATION_CODE)) {
            AuthorizationCodeGrant g = (AuthorizationCodeGrant) req.getAuthorizationGrant();
            Pending p = codes.remove(g.getAuthorizationCode().getValue());
            if (p == null) {
                refuse(ex, OAuth2Error.INVALID_GRANT.setDescription("unknown or used code"));
            } else if (g.getCodeVerifier() == null
                    || !CodeChallenge.compute(CodeChallengeMethod.S256, g.getCodeVerifier()).equals(p.challenge())) {
                refuse(ex, OAuth2Error.INVALID_GRANT.setDescription("PKCE verification failed"));
            } else if (!p.redirect().equals(g.getRedirectionURI())) {
                refuse(ex, OAuth2Error.INVALID_GRANT.setDescription("redirect_uri differs"));
            } else {
                tokens(ex, new Person(p.username(), p.groups()), p.nonce());
            }
        } else if (type.equals(GrantType.REFRESH_TOKEN)) {
            Person who = refreshTokens.remove(((RefreshTokenGrant) req.getAuthorizationGrant()).getRefreshToken().getValue());
            if (who == null) {
                refuse(ex, OAuth2Error.INVALID_GRANT.setDescription("Session not active"));
            } else {
                refreshes.incrementAndGet();
                tokens(ex, who, null);
            }
        } else if (type.equals(GrantType.DEVICE_CODE)) {
            devicePolls.add(Instant.now());
            String code = ((DeviceCodeGrant) req.getAuthorizationGrant()).getDeviceCode().getValue();
            Person who = deviceCodes.get(code);
            String next;
            synchronized (deviceScript) {
                next = deviceScript.poll();
            }
            if (who == null) {
                refuse(ex, OAuth2Error.INVALID_GRANT);
            } else if (next == null) {
                deviceCodes.remove(code);
                tokens(ex, who, null);
            } else {
                refuse(ex, switch (next) {
                    case "authorization_pending" -> DeviceAuthorizationGrantError.AUTHORIZATION_PENDING;
                    case "slow_down" -> DeviceAuthorizationGrantError.SLOW_DOWN;
                    case "expired_token" -> DeviceAuthorizationGrantError.EXPIRED_TOKEN;
                    default -> OAuth2Error.ACCESS_DENIED;
                });
            }
        } else {
            refuse(ex, OAuth2Error.UNSUPPORTED_GRANT_TYPE);
        }
    }

    private void device(HttpExchange ex) throws IOException {
        DeviceAuthorizationRequest req;
        try {
            req = DeviceAuthorizationRequest.parse(formRequest(ex));
        } catch (ParseException e) {
            send(ex, new TokenErrorResponse(OAuth2Error.INVALID_REQUEST.setDescription(e.getMessage())).toHTTPResponse());
            return;
        }
        if (req.getClientID() == null || !OidcStub.PUBLIC_CLIENT.equals(req.getClientID().getValue())) {
            send(ex, new TokenErrorResponse(OAuth2Error.INVALID_CLIENT).toHTTPResponse());
            return;
        }
        DeviceCode code = new DeviceCode();
        issued.add(code.getValue());
        UserCode user = new UserCode("BCDFGHJKLMNPQRSTVWXZ", 8);
        deviceCodes.put(code.getValue(), new Person(username, groups));
        URI page = URI.create(idp.issuer() + "/device-page");
        send(ex, new DeviceAuthorizationSuccessResponse(code, user, page, URI.create(page + "?user_code=" + user.getValue()),
                deviceLifetime, deviceInterval, null).toHTTPResponse());
    }

    private void tokens(HttpExchange ex, Person who, String nonce) throws IOException {
        String access = idp.token().username(who.username()).claim("groups", who.groups()).claim("azp", OidcStub.PUBLIC_CLIENT)
                .expiresIn(accessLifetime).mint();
        OidcStub.Token id = idp.token().username(who.username()).claim("groups", who.groups()).audience(OidcStub.PUBLIC_CLIENT)
                .claim("azp", OidcStub.PUBLIC_CLIENT).claim("email", who.username() + "@example.com");
        if (nonce != null) {
            id.claim("nonce", nonce);
        }
        String idToken = id.mint();
        RefreshToken refresh = new RefreshToken();
        refreshTokens.put(refresh.getValue(), who);
        issued.addAll(List.of(access, idToken, refresh.getValue()));
        try {
            send(ex, new OIDCTokenResponse(new OIDCTokens(JWTParser.parse(idToken), new BearerAccessToken(access, accessLifetime.toSeconds(),
                    null), refresh)).toHTTPResponse());
        } catch (java.text.ParseException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void refuse(HttpExchange ex, ErrorObject error) throws IOException {
        send(ex, new TokenErrorResponse(error).toHTTPResponse());
    }

    private static HTTPRequest formRequest(HttpExchange ex) throws IOException, ParseException {
        HTTPRequest r = new HTTPRequest(HTTPRequest.Method.valueOf(ex.getRequestMethod()), URI.create("http://stub" + ex.getRequestURI()));
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        if (type != null) {
            r.setContentType(type);
        }
        r.setBody(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        return r;
    }

    private static void send(HttpExchange ex, HTTPResponse r) throws IOException {
        byte[] b = r.getBody() == null ? new byte[0] : r.getBody().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(r.getStatusCode(), b.length == 0 ? -1 : b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private static void page(HttpExchange ex, int status, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}

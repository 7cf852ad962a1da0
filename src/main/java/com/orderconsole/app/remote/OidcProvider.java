package com.orderconsole.app.remote;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.oauth2.sdk.AuthorizationGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.token.Tokens;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.token.OIDCTokens;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import com.orderconsole.app.Messages;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One identity provider as the console's public client sees it: its discovery document, its token endpoint, and the check
 * of its ID tokens (signature against its published keys, issuer, audience, expiry, nonce), all through the Nimbus SDK. Every
 * failure is a {@link SignInRequiredException} in words; no token is ever put in a message.
 */
final class OidcProvider {
    final URI issuer;
    final ClientID clientId;
    final Scope scope;
    final OIDCProviderMetadata metadata;
    final int timeoutMillis;
    private final IDTokenValidator idTokens;

    private OidcProvider(URI issuer, ClientID clientId, Scope scope, OIDCProviderMetadata metadata, int timeoutMillis) {
        this.issuer = issuer;
        this.clientId = clientId;
        this.scope = scope;
        this.metadata = metadata;
        this.timeoutMillis = timeoutMillis;
        Set<JWSAlgorithm> algs = new HashSet<>();
        List<JWSAlgorithm> offered = metadata.getIDTokenJWSAlgs();
        // Only signatures with the provider's published keys: never "none", never a shared-secret (HMAC) algorithm.
        (offered == null || offered.isEmpty() ? List.of(JWSAlgorithm.RS256) : offered).stream()
                .filter(a -> !JWSAlgorithm.Family.HMAC_SHA.contains(a) && !"none".equals(a.getName())).forEach(algs::add);
        try {
            idTokens = new IDTokenValidator(new Issuer(metadata.getIssuer().getValue()), clientId,
                    new JWSVerificationKeySelector<SecurityContext>(algs, JWKSourceBuilder.create(metadata.getJWKSetURI().toURL())
                            .retrying(true).build()), null);
        } catch (java.net.MalformedURLException e) {
            throw new SignInRequiredException(Messages.format("oidc.discovery", issuer), e);
        }
    }

    /**
     * Reads the provider's discovery document ({@code <issuer>/.well-known/openid-configuration}).
     *
     * @param issuer the issuer URL, as the profile names it
     * @param clientId the console's public client id there
     * @param scope the scopes asked for
     * @param timeout connect and read timeout of every request to the provider
     * @return the provider
     * @throws SignInRequiredException in words when it cannot be reached or its document is missing or names another issuer
     */
    static OidcProvider discover(URI issuer, String clientId, Scope scope, Duration timeout) {
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        try {
            OIDCProviderMetadata m = OIDCProviderMetadata.resolve(new Issuer(issuer.toString()), ms, ms);
            if (m.getJWKSetURI() == null || m.getTokenEndpointURI() == null) {
                throw new SignInRequiredException(Messages.format("oidc.discovery", issuer));
            }
            return new OidcProvider(issuer, new ClientID(clientId), scope, m, ms);
        } catch (IOException e) {
            throw new SignInRequiredException(Messages.format("oidc.unreachable", issuer, network(e, ms)), e);
        } catch (GeneralException e) {
            throw new SignInRequiredException(Messages.format("oidc.discovery", issuer), e);
        }
    }

    /** @return what went wrong on the network, in words */
    static String network(IOException e, int timeoutMillis) {
        if (e instanceof ConnectException) {
            return Messages.get("oidc.net.refused");
        }
        if (e instanceof SocketTimeoutException || e instanceof java.net.http.HttpTimeoutException) {
            return Messages.format("oidc.net.timeout", Math.max(1, timeoutMillis / 1000));
        }
        if (e instanceof UnknownHostException) {
            return Messages.get("oidc.net.unknownHost");
        }
        return Messages.get("oidc.net.other");
    }

    /** The provider answered a token request: its tokens, or its refusal. */
    record Answer(Tokens tokens, ErrorObject error) {
        /** @return the refusal's code ("invalid_grant", "authorization_pending", ...), or "" */
        String code() {
            return error == null || error.getCode() == null ? "" : error.getCode();
        }

        /** @return the refusal in words: its description and code, e.g. "Session not active (invalid_grant)" */
        String words() {
            if (error == null) {
                return "";
            }
            String d = error.getDescription();
            return d == null || d.isBlank() ? code() : Messages.format("oidc.refusedCode", d, code());
        }
    }

    /**
     * @param grant the grant to exchange (authorization code, refresh token, device code)
     * @return the provider's tokens or its refusal
     * @throws SignInRequiredException in words when the provider cannot be reached or its answer cannot be read
     */
    Answer exchange(AuthorizationGrant grant) {
        TokenRequest req = new TokenRequest.Builder(metadata.getTokenEndpointURI(), clientId, grant).build();
        HTTPResponse resp = send(req.toHTTPRequest());
        try {
            TokenResponse r = OIDCTokenResponseParser.parse(resp);
            if (r instanceof TokenErrorResponse e) {
                return new Answer(null, e.getErrorObject());
            }
            return new Answer(r.toSuccessResponse().getTokens(), null);
        } catch (ParseException e) {
            throw new SignInRequiredException(Messages.format("oidc.badAnswer", issuer, resp.getStatusCode()), e);
        }
    }

    /**
     * @param req a request to the provider
     * @return its answer
     * @throws SignInRequiredException in words when the provider cannot be reached
     */
    HTTPResponse send(HTTPRequest req) {
        req.setConnectTimeout(timeoutMillis);
        req.setReadTimeout(timeoutMillis);
        try {
            return req.send();
        } catch (IOException e) {
            throw new SignInRequiredException(Messages.format("oidc.unreachable", issuer, network(e, timeoutMillis)), e);
        }
    }

    /**
     * Checks the ID token of a sign-in and reads who signed in.
     *
     * @param tokens the tokens the provider gave
     * @param nonce the nonce the sign-in sent, or null (device grant, refresh)
     * @return who signed in, or null when there is no ID token
     * @throws SignInRequiredException in words when the ID token does not check out
     */
    OidcSession.Who who(Tokens tokens, Nonce nonce) {
        if (!(tokens instanceof OIDCTokens oidc) || oidc.getIDToken() == null) {
            return null;
        }
        JWT id = oidc.getIDToken();
        try {
            IDTokenClaimsSet c = idTokens.validate(id, nonce);
            Object groups = c.getClaim("groups");
            List<String> g = groups instanceof List<?> l ? l.stream().map(String::valueOf).toList()
                    : groups == null ? List.of() : List.of(String.valueOf(groups));
            String name = firstOf(c.getStringClaim("preferred_username"), c.getStringClaim("email"), c.getStringClaim("name"),
                    c.getSubject().getValue());
            return new OidcSession.Who(name, c.getSubject().getValue(), g);
        } catch (com.nimbusds.jose.proc.BadJOSEException | com.nimbusds.jose.JOSEException e) {
            throw new SignInRequiredException(Messages.format("oidc.idToken", issuer), e);
        }
    }

    private static String firstOf(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return "";
    }
}

package com.orderconsole.app.remote;

import com.nimbusds.oauth2.sdk.OAuth2Error;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationRequest;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationResponse;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationSuccessResponse;
import com.nimbusds.oauth2.sdk.device.DeviceCodeGrant;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.orderconsole.app.Messages;

import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The device authorization grant (RFC 8628) for a person at a terminal: the provider hands out a user code, the person
 * opens the verification address in any browser (another machine will do) and enters it, and the console polls the token
 * endpoint at the interval the provider asks for, waiting 5 seconds longer after each {@code slow_down}.
 */
final class DeviceSignIn {
    /** What RFC 8628 adds to the interval after a {@code slow_down}, in seconds. */
    static final int SLOW_DOWN_SECONDS = 5;
    /** The interval when the provider names none, in seconds (RFC 8628 section 3.2). */
    static final int DEFAULT_INTERVAL = 5;

    private final OidcProvider provider;
    private final Clock clock;
    private final Duration second;

    /**
     * @param provider the identity provider
     * @param clock the session's clock (the code's lifetime is measured on it)
     * @param second how long one of the provider's seconds is waited (1 s; tests shorten it)
     */
    DeviceSignIn(OidcProvider provider, Clock clock, Duration second) {
        this.provider = provider;
        this.clock = clock;
        this.second = second;
    }

    /**
     * @param out where the verification address and the user code are printed, with progress and the outcome
     * @return the tokens and who signed in
     * @throws SignInRequiredException in words: no device grant, code expired, access denied, refused, unreachable,
     *     interrupted (cancelled)
     */
    OidcSession.Grant run(PrintStream out) {
        URI endpoint = provider.metadata.getDeviceAuthorizationEndpointURI();
        if (endpoint == null) {
            throw new SignInRequiredException(Messages.format("oidc.noDevice", provider.issuer, provider.clientId.getValue()));
        }
        HTTPResponse resp = provider.send(new DeviceAuthorizationRequest(endpoint, provider.clientId, provider.scope).toHTTPRequest());
        DeviceAuthorizationSuccessResponse start;
        try {
            DeviceAuthorizationResponse r = DeviceAuthorizationResponse.parse(resp);
            if (!r.indicatesSuccess()) {
                OidcProvider.Answer a = new OidcProvider.Answer(null, r.toErrorResponse().getErrorObject());
                throw new SignInRequiredException(Messages.format("oidc.refused", provider.issuer, a.words()));
            }
            start = r.toSuccessResponse();
        } catch (ParseException e) {
            throw new SignInRequiredException(Messages.format("oidc.badAnswer", provider.issuer, resp.getStatusCode()), e);
        }
        String userCode = start.getUserCode().getValue();
        out.println(Messages.format("oidc.device.prompt", start.getVerificationURI(), userCode));
        if (start.getVerificationURIComplete() != null) {
            out.println(Messages.format("oidc.device.complete", start.getVerificationURIComplete()));
        }
        long lifetime = start.getLifetime() > 0 ? start.getLifetime() : 600;
        out.println(Messages.format("oidc.device.waiting", Math.max(1, lifetime / 60)));
        out.flush();
        Instant deadline = clock.instant().plusSeconds(lifetime);
        long interval = start.getInterval() > 0 ? start.getInterval() : DEFAULT_INTERVAL;
        DeviceCodeGrant grant = new DeviceCodeGrant(start.getDeviceCode());
        while (true) {
            try {
                Thread.sleep(second.multipliedBy(interval).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SignInRequiredException(Messages.get("oidc.cancelled"), e);
            }
            OidcProvider.Answer a = provider.exchange(grant);
            if (a.tokens() != null) {
                return new OidcSession.Grant(a.tokens(), provider.who(a.tokens(), null));
            }
            switch (a.code()) {
                case "authorization_pending" -> {
                    // The person has not finished yet: ask again after the interval.
                }
                case "slow_down" -> {
                    interval += SLOW_DOWN_SECONDS;
                    out.println(Messages.format("oidc.device.slower", interval));
                }
                case "expired_token" -> throw new SignInRequiredException(Messages.format("oidc.device.expired", userCode));
                default -> {
                    if (OAuth2Error.ACCESS_DENIED.getCode().equals(a.code())) {
                        throw new SignInRequiredException(Messages.format("oidc.device.denied", userCode));
                    }
                    throw new SignInRequiredException(Messages.format("oidc.refused", provider.issuer, a.words()));
                }
            }
            if (clock.instant().isAfter(deadline)) {
                throw new SignInRequiredException(Messages.format("oidc.device.expired", userCode));
            }
        }
    }
}

package com.orderconsole;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The test provider checks what a real one checks, so a console test cannot pass by skipping PKCE or the loopback rule. */
class OidcStubGrantsTest {
    private static final URI REDIRECT = URI.create("http://127.0.0.1:9/callback");

    private static AuthorizationCode code(OidcStub idp, CodeVerifier verifier) throws Exception {
        URI auth = new AuthenticationRequest.Builder(ResponseType.CODE, new Scope("openid"), new ClientID(OidcStub.PUBLIC_CLIENT), REDIRECT)
                .endpointURI(URI.create(idp.issuer() + "/auth")).state(new State())
                .codeChallenge(verifier, CodeChallengeMethod.S256).build().toURI();
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(auth).build(), HttpResponse.BodyHandlers.ofString());
        URI back = URI.create(r.headers().firstValue("Location").orElseThrow());
        return AuthorizationResponse.parse(back).toSuccessResponse().getAuthorizationCode();
    }

    private static TokenResponse exchange(OidcStub idp, AuthorizationCode code, CodeVerifier verifier) throws Exception {
        return OIDCTokenResponseParser.parse(new TokenRequest.Builder(URI.create(idp.issuer() + "/token"),
                new ClientID(OidcStub.PUBLIC_CLIENT), new AuthorizationCodeGrant(code, REDIRECT, verifier)).build().toHTTPRequest().send());
    }

    @Test
    void aCodeIsExchangedOnlyOnceAndOnlyWithItsVerifier() throws Exception {
        try (OidcStub idp = OidcStub.start()) {
            CodeVerifier verifier = new CodeVerifier();
            AuthorizationCode code = code(idp, verifier);
            TokenResponse wrong = exchange(idp, code, new CodeVerifier());
            assertThat(wrong.indicatesSuccess()).isFalse();
            assertThat(((TokenErrorResponse) wrong).getErrorObject().getDescription()).isEqualTo("PKCE verification failed");

            CodeVerifier v2 = new CodeVerifier();
            AuthorizationCode code2 = code(idp, v2);
            assertThat(exchange(idp, code2, v2).indicatesSuccess()).isTrue();
            assertThat(exchange(idp, code2, v2).indicatesSuccess()).as("a code is used once").isFalse();
        }
    }
}

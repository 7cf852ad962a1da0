package com.orderconsole.service.identity;

import com.orderconsole.OidcStub;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The token check where the API tests do not reach: a provider that does not answer, the role claim's shapes, the cache. */
class OidcVerifierTest {
    private static final String MAP = "console-support=support,console-ops=ops";

    @Test
    void aProviderThatDoesNotAnswerIsUnavailableNotInvalid() {
        String token;
        OidcSettings settings;
        try (OidcStub idp = OidcStub.start()) {
            token = idp.token().mint();
            settings = idp.settings(MAP);
        }
        OidcVerifier v = new OidcVerifier(settings);
        assertThatThrownBy(() -> v.verify(token)).isInstanceOfSatisfying(TokenRefusedException.class, e -> {
            assertThat(e.kind()).isEqualTo(TokenRefusedException.Kind.UNAVAILABLE);
            assertThat(e.getMessage()).contains("discovery document").contains("could not be read").doesNotContain(token);
        });
    }

    @Test
    void aDiscoveryDocumentOfAnotherIssuerIsRefused() {
        try (OidcStub idp = OidcStub.start()) {
            OidcSettings other = OidcSettings.of(idp.issuer() + "/", OidcStub.AUDIENCE, "groups", MAP);
            assertThatThrownBy(() -> new OidcVerifier(other).verify(idp.token().mint()))
                    .isInstanceOfSatisfying(TokenRefusedException.class, e -> assertThat(e.getMessage())
                            .contains("names issuer '" + idp.issuer() + "', not the configured --oidc-issuer"));
        }
    }

    @Test
    void theRoleClaimMayBeAPathAndAVerifiedTokenIsKeptUntilItExpires() {
        try (OidcStub idp = OidcStub.start()) {
            OidcSettings nested = OidcSettings.of(idp.issuer(), OidcStub.AUDIENCE, "realm_access.roles", MAP)
                    .withTiming(Duration.ZERO, Duration.ofMillis(200));
            OidcVerifier v = new OidcVerifier(nested);
            String token = idp.token().claim("groups", null).claim("realm_access", java.util.Map.of("roles", java.util.List.of("console-ops")))
                    .mint();
            Person p = v.verify(token);
            assertThat(p.role()).isEqualTo(com.orderconsole.domain.Role.OPS);
            assertThat(p.actor()).isEqualTo("sso:alice via " + OidcStub.CLIENT);
            int reads = idp.keySetReads();
            assertThat(v.cached(token)).isEqualTo(p);
            assertThat(v.verify(token)).isSameAs(p);
            assertThat(idp.keySetReads()).isEqualTo(reads);
            String shortLived = idp.token().claim("groups", null).claim("realm_access", java.util.Map.of("roles", java.util.List.of("console-ops")))
                    .expiresIn(Duration.ofMillis(1500)).mint();
            v.verify(shortLived);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> v.cached(shortLived) == null);
            assertThatThrownBy(() -> v.verify(shortLived)).hasMessageContaining("expired at");
        }
    }
}

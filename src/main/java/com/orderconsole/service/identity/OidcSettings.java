package com.orderconsole.service.identity;

import com.orderconsole.domain.Role;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How {@code serve} checks people's access tokens.
 *
 * @param issuer the identity provider's issuer URL, exactly as its tokens' {@code iss} says (e.g.
 *     {@code https://login.example.com/realms/shop}); its keys are found through {@code /.well-known/openid-configuration}
 * @param audience the value a token's {@code aud} must hold (the API's client id or resource at the provider)
 * @param roleClaim the claim naming the person's groups, a string or a list of strings (e.g. {@code groups})
 * @param roleMap each group that gives a console role, e.g. {@code console-support} → support; a person in several
 *     mapped groups gets the highest of their roles, a person in none is refused (403)
 * @param clockSkew how far the token's {@code exp} and {@code nbf} may be off this machine's clock, e.g. 60 s
 * @param keyRefetchInterval the least time between two fetches of the provider's keys caused by a key id not seen before
 *     (a token with a made-up {@code kid} cannot make serve hammer the provider)
 */
public record OidcSettings(String issuer, String audience, String roleClaim, Map<String, Role> roleMap, Duration clockSkew,
                           Duration keyRefetchInterval) {
    /** The clock skew allowed unless told otherwise. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
    /** The least time between two key fetches caused by an unknown key id, unless told otherwise. */
    public static final Duration DEFAULT_KEY_REFETCH = Duration.ofSeconds(30);

    public OidcSettings {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalArgumentException("--oidc-issuer is missing: the identity provider's issuer URL, as its tokens' iss says");
        }
        URI u;
        try {
            u = URI.create(issuer);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--oidc-issuer '" + issuer + "' is not a URL");
        }
        if (!("https".equals(u.getScheme()) || "http".equals(u.getScheme()) && isLoopback(u.getHost())) || u.getHost() == null) {
            throw new IllegalArgumentException("--oidc-issuer '" + issuer + "' must be an https URL (http only on the loopback "
                    + "address, for a test provider)");
        }
        if (audience == null || audience.isBlank()) {
            throw new IllegalArgumentException("--oidc-audience is missing: the value the tokens' aud claim holds for this API");
        }
        if (roleClaim == null || roleClaim.isBlank()) {
            throw new IllegalArgumentException("--oidc-role-claim is missing: the claim that names a person's groups, e.g. groups");
        }
        if (roleMap == null || roleMap.isEmpty()) {
            throw new IllegalArgumentException("--oidc-role-map is missing: which group gives which console role, e.g. "
                    + "'console-support=support,console-ops=ops,console-admin=admin'");
        }
        roleMap = Collections.unmodifiableMap(new LinkedHashMap<>(roleMap));
        clockSkew = clockSkew == null ? DEFAULT_CLOCK_SKEW : clockSkew;
        keyRefetchInterval = keyRefetchInterval == null ? DEFAULT_KEY_REFETCH : keyRefetchInterval;
    }

    /**
     * The settings of {@code serve}'s flags or profile keys, with the default clock skew and key refetch interval.
     *
     * @param roleMapText {@code GROUP=role,…}, e.g. {@code console-support=support,console-admin=admin}
     * @throws IllegalArgumentException in words naming the flag and what is wrong
     */
    public static OidcSettings of(String issuer, String audience, String roleClaim, String roleMapText) {
        return new OidcSettings(issuer, audience, roleClaim, parseRoleMap(roleMapText), null, null);
    }

    /** @return these settings with another clock skew and key refetch interval (tests use short ones) */
    public OidcSettings withTiming(Duration skew, Duration refetch) {
        return new OidcSettings(issuer, audience, roleClaim, roleMap, skew, refetch);
    }

    /**
     * @param text {@code GROUP=role,…}: groups are compared exactly (case matters), roles are read-only, support, ops, admin
     * @return group → role, in the order given
     * @throws IllegalArgumentException naming the entry that is not {@code GROUP=role}, or the role that is unknown
     */
    public static Map<String, Role> parseRoleMap(String text) {
        Map<String, Role> map = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return map;
        }
        for (String entry : text.split(",")) {
            String e = entry.strip();
            if (e.isEmpty()) {
                continue;
            }
            int eq = e.lastIndexOf('=');
            if (eq <= 0 || eq == e.length() - 1) {
                throw new IllegalArgumentException("--oidc-role-map entry '" + e + "' is not GROUP=role (e.g. console-ops=ops)");
            }
            String group = e.substring(0, eq).strip();
            Role role;
            try {
                role = Role.parse(e.substring(eq + 1));
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException("--oidc-role-map entry '" + e + "': " + bad.getMessage());
            }
            if (map.containsKey(group)) {
                throw new IllegalArgumentException("--oidc-role-map names group '" + group + "' twice; give each group once");
            }
            map.put(group, role);
        }
        return map;
    }

    private static boolean isLoopback(String host) {
        return "127.0.0.1".equals(host) || "localhost".equals(host) || "[::1]".equals(host);
    }
}

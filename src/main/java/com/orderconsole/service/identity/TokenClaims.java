package com.orderconsole.service.identity;

import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.JWTClaimsSetVerifier;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * The claims of a token whose signature verified: issuer, audience, expiry and not-before (each in words when it fails,
 * within the settings' clock skew), then who the person is and which console role their groups give.
 */
final class TokenClaims implements JWTClaimsSetVerifier<SecurityContext> {
    private final OidcSettings settings;

    TokenClaims(OidcSettings settings) {
        this.settings = settings;
    }

    @Override
    public void verify(JWTClaimsSet c, SecurityContext context) throws BadJWTException {
        if (!settings.issuer().equals(c.getIssuer())) {
            throw new BadJWTException("the token was issued by '" + printable(String.valueOf(c.getIssuer())) + "', not by the "
                    + "configured identity provider '" + settings.issuer() + "'");
        }
        List<String> aud = c.getAudience();
        if (aud == null || !aud.contains(settings.audience())) {
            throw new BadJWTException("the token is for audience " + printable(String.valueOf(aud)) + ", not for this API ('"
                    + settings.audience() + "')");
        }
        long now = System.currentTimeMillis();
        long skew = settings.clockSkew().toMillis();
        Date exp = c.getExpirationTime();
        if (exp == null) {
            throw new BadJWTException("the token has no expiry (exp); tokens without one are not accepted");
        }
        if (now > exp.getTime() + skew) {
            throw new BadJWTException("the token expired at " + exp.toInstant() + "; sign in again for a new one");
        }
        Date nbf = c.getNotBeforeTime();
        if (nbf != null && now + skew < nbf.getTime()) {
            throw new BadJWTException("the token is not valid before " + nbf.toInstant() + " (check this machine's clock, or "
                    + "the provider's)");
        }
        if (c.getSubject() == null || c.getSubject().isBlank()) {
            throw new BadJWTException("the token names no person (sub)");
        }
    }

    /**
     * @param c claims that passed {@link #verify}
     * @return the person, with the highest role their groups map to
     * @throws TokenRefusedException {@code NO_ROLE} when none maps; {@code INVALID} when the token names no client, or the
     *     history cannot name the person in {@link Operator}'s 64 characters
     */
    Person person(JWTClaimsSet c) {
        String shownAs = firstText(c, "preferred_username", "email");
        String sub = c.getSubject();
        String client = firstText(c, "azp", "client_id", "cid");
        if (client == null) {
            throw new TokenRefusedException(TokenRefusedException.Kind.INVALID, "the token names no client (azp, client_id or cid), "
                    + "and every change records the client that carried it");
        }
        String name = shownAs != null && fits(shownAs, client) ? shownAs : sub;
        if (!fits(name, client) || !printableOnly(name) || !printableOnly(client)) {
            throw new TokenRefusedException(TokenRefusedException.Kind.INVALID, "the history cannot name this person: '"
                    + Person.actorOf(printable(name), printable(client)) + "' is over 64 characters or holds control characters");
        }
        List<String> groups = groups(c);
        Role role = null;
        for (String g : groups) {
            Role r = settings.roleMap().get(g);
            if (r != null && (role == null || r.includes(role))) {
                role = r;
            }
        }
        if (role == null) {
            throw new TokenRefusedException(TokenRefusedException.Kind.NO_ROLE, "signed in as " + printable(name) + ", but none of "
                    + "the groups in the token's '" + settings.roleClaim() + "' claim " + printable(groups.toString())
                    + " gives a console role (serve maps " + String.join(", ", settings.roleMap().keySet()) + "); ask the "
                    + "identity provider's administrator to add you to one of them");
        }
        return new Person(settings.issuer(), sub, name, client, role, c.getExpirationTime().getTime());
    }

    /** @return the role claim's strings: a string, a list of strings, or a path through objects (realm_access.roles) */
    private List<String> groups(JWTClaimsSet c) {
        Object v = c.getClaim(settings.roleClaim());
        if (v == null && settings.roleClaim().contains(".")) {
            v = c.getClaims();
            for (String part : settings.roleClaim().split("\\.")) {
                v = v instanceof Map<?, ?> m ? m.get(part) : null;
            }
        }
        List<String> out = new ArrayList<>();
        if (v instanceof String s) {
            out.add(s);
        } else if (v instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof String s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private static String firstText(JWTClaimsSet c, String... names) {
        for (String n : names) {
            Object v = c.getClaim(n);
            if (v instanceof String s && !s.isBlank()) {
                return s.strip();
            }
        }
        return null;
    }

    private static boolean fits(String name, String client) {
        return Person.actorOf(name, client).length() <= 64;
    }

    private static boolean printableOnly(String s) {
        return s.chars().noneMatch(ch -> ch < 0x20 || ch == 0x7f);
    }

    /** @return text safe to put in an answer or a log line: control characters shown as '?', at most 200 characters */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(200).forEach(cp -> b.appendCodePoint(cp < 0x20 || cp == 0x7f ? '?' : cp));
        return b.toString();
    }
}

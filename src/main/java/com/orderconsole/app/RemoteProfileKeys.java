package com.orderconsole.app;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The checks of a remote profile (one naming {@code server}): serve's URL, and one way to an access token (issuer with
 * client id, or a token command), and nothing of the stores: a profile naming both would leave it unclear which one the
 * console reaches, and a store account beside serve would hand a person the credential remote mode keeps from them.
 */
final class RemoteProfileKeys {
    /** Keys that configure the stores or serve itself: never in a remote profile. */
    private static final List<String> STORE_ONLY = List.of("db-user", "password-env", "redis-user", "redis-password-env", "data-dir",
            "oidc-issuer", "oidc-audience", "oidc-role-claim", "oidc-role-map");

    /** Receives one fault: the field at fault (its line is looked up) and the message key with its arguments after file and line. */
    interface Faults {
        void fault(String field, String key, Object... more);
    }

    private RemoteProfileKeys() {
    }

    /**
     * @param values the profile's fields by key (it names {@code server})
     * @param faults receives each fault found
     */
    static void check(Map<String, String> values, Faults faults) {
        for (String store : List.of("redis", "jdbc")) {
            if (values.containsKey(store)) {
                faults.fault(store, "profile.error.serverAndStores", store);
            }
        }
        for (String key : STORE_ONLY) {
            if (values.containsKey(key)) {
                faults.fault(key, "profile.error.notRemote", key);
            }
        }
        checkUrl(values, "server", faults);
        boolean command = values.containsKey("token-command");
        boolean issuer = values.containsKey("issuer");
        boolean client = values.containsKey("client-id");
        if (command && (issuer || client)) {
            faults.fault("token-command", "profile.error.tokenCommandAndIssuer");
        } else if (!command && !issuer && !client) {
            faults.fault("server", "profile.error.remoteSignIn");
        } else if (!command && issuer != client) {
            faults.fault(issuer ? "issuer" : "client-id", "profile.error.remoteHalf", issuer ? "issuer" : "client-id",
                    issuer ? "client-id" : "issuer");
        }
        if (issuer) {
            checkUrl(values, "issuer", faults);
        }
        if (client && !values.get("client-id").matches("[\\x21-\\x7e]{1,200}")) {
            faults.fault("client-id", "profile.error.clientId", values.get("client-id"));
        }
    }

    /** An absolute https URL with a host and no account, query or fragment; plain http only for this machine. */
    private static void checkUrl(Map<String, String> values, String key, Faults faults) {
        String value = values.get(key);
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            faults.fault(key, "profile.error.url", key, Profiles.mask(value), Messages.get("profile.url.syntax"));
            return;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String why = null;
        if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            why = "profile.url.syntax";
        } else if (uri.getRawUserInfo() != null) {
            why = "profile.url.credentials";
        } else if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            why = "profile.url.query";
        } else if (scheme.equals("http") && !loopback(uri.getHost())) {
            why = "profile.url.plain";
        }
        if (why != null) {
            faults.fault(key, "profile.error.url", key, Profiles.mask(value), Messages.get(why));
        }
    }

    /** @return true for a host name that is this machine (plain http is acceptable there: nothing crosses a network) */
    private static boolean loopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.equals("127.0.0.1") || h.equals("[::1]") || h.equals("::1");
    }
}

package com.orderconsole.app.remote;

import com.orderconsole.app.Messages;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The form of serve's API base URL ({@code --server URL}) and of an identity provider's issuer as a person types them:
 * absolute https with a host, no account,
 * query or fragment; plain http only for this machine, where no token crosses a network.
 */
public final class ServeUrl {
    private ServeUrl() {
    }

    /**
     * @param text the URL as typed, e.g. {@code https://orders.example.com}
     * @return it as a URI, without a trailing slash
     * @throws IllegalArgumentException in words naming the text (an account in it masked) and what is wrong with it
     */
    public static URI parse(String text) {
        return parse(text, "remote.url.refused");
    }

    /**
     * @param text an identity provider's issuer URL as typed, e.g. {@code https://login.example.com/realms/staff}
     * @return it as a URI, exactly as typed (providers compare issuers character for character)
     * @throws IllegalArgumentException in words, as {@link #parse(String)}
     */
    public static URI parseIssuer(String text) {
        return parse(text, "remote.url.refusedIssuer");
    }

    private static URI parse(String text, String refusedKey) {
        String value = text == null ? "" : text.strip();
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw refused(refusedKey, value, "remote.url.syntax");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw refused(refusedKey, value, "remote.url.syntax");
        }
        if (uri.getRawUserInfo() != null) {
            throw refused(refusedKey, masked(uri), "remote.url.credentials");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw refused(refusedKey, value, "remote.url.query");
        }
        if (scheme.equals("http") && !loopback(uri.getHost())) {
            throw refused(refusedKey, value, "remote.url.plain");
        }
        if (refusedKey.equals("remote.url.refusedIssuer")) {
            return uri; // an issuer is compared with the provider's own exactly, a trailing slash included
        }
        String s = uri.toString();
        return URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    }

    private static IllegalArgumentException refused(String key, String shown, String why) {
        return new IllegalArgumentException(Messages.format(key, shown, Messages.get(why)));
    }

    /** @return the URL with its account and password replaced by {@code ***} */
    private static String masked(URI uri) {
        return uri.getScheme() + "://***@" + uri.getRawAuthority().substring(uri.getRawAuthority().lastIndexOf('@') + 1)
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** @return true for a host name that is this machine */
    static boolean loopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.startsWith("127.") || h.equals("[::1]") || h.equals("::1");
    }
}

package com.orderconsole.app;

import com.orderconsole.domain.Environment;

import java.nio.file.Path;

/**
 * A connection profile: one environment's servers and the account to sign in with, read from
 * {@code profiles/NAME.properties} in {@link ConfigDir}. Never a password: it comes from the variable
 * named by {@code password-env}, the terminal prompt or the sign-in dialog.
 *
 * @param file the file it was read from
 * @param environment name, kind and band colour
 * @param redisUri Redis URI, or null for the embedded servers
 * @param jdbcUrl JDBC URL, or null for the embedded servers
 * @param dbUser database account to sign in with, or null (the OS user name)
 * @param passwordEnv name of an environment variable holding the password, or null (asked)
 * @param redisUser Redis ACL user, or null (the URI's, if any)
 * @param redisPasswordEnv name of an environment variable holding the Redis ACL password, or null
 * @param dataDir data directory of the embedded servers, or null for the default
 * @param oidc serve's OIDC keys given ({@code oidc-issuer}, {@code oidc-audience}, {@code oidc-role-claim},
 *     {@code oidc-role-map}), by key; empty when none
 * @param server remote mode: serve's API base URL ({@code server}), or null (the console talks to the stores itself)
 * @param issuer remote mode: the identity provider people sign in with ({@code issuer}), or null
 * @param clientId remote mode: the console's public client id at that provider ({@code client-id}), or null
 * @param tokenCommand remote mode: a program that prints an access token ({@code token-command}), instead of issuer
 *     and client id; or null
 */
public record Profile(Path file, Environment environment, String redisUri, String jdbcUrl, String dbUser, String passwordEnv,
                      String redisUser, String redisPasswordEnv, Path dataDir, java.util.Map<String, String> oidc,
                      java.net.URI server, java.net.URI issuer, String clientId, String tokenCommand) {
    /** The keys of serve's OIDC settings in a profile; serve's flags of the same names take precedence. */
    public static final java.util.List<String> OIDC_KEYS = java.util.List.of("oidc-issuer", "oidc-audience", "oidc-role-claim",
            "oidc-role-map");

    public Profile {
        oidc = oidc == null ? java.util.Map.of() : java.util.Map.copyOf(oidc);
    }

    /** A profile of the stores (not remote) without OIDC keys. */
    public Profile(Path file, Environment environment, String redisUri, String jdbcUrl, String dbUser, String passwordEnv,
                   String redisUser, String redisPasswordEnv, Path dataDir) {
        this(file, environment, redisUri, jdbcUrl, dbUser, passwordEnv, redisUser, redisPasswordEnv, dataDir, java.util.Map.of());
    }

    /** A profile of the stores (not remote), with serve's OIDC keys. */
    public Profile(Path file, Environment environment, String redisUri, String jdbcUrl, String dbUser, String passwordEnv,
                   String redisUser, String redisPasswordEnv, Path dataDir, java.util.Map<String, String> oidc) {
        this(file, environment, redisUri, jdbcUrl, dbUser, passwordEnv, redisUser, redisPasswordEnv, dataDir, oidc, null, null, null,
                null);
    }

    /**
     * A remote profile: the console and the CLI work through serve's API and open no store connection.
     *
     * @param file the file it was read from
     * @param environment name, kind and band colour
     * @param server serve's API base URL
     * @param issuer the identity provider's issuer URL, or null with a token command
     * @param clientId the console's public client id at the provider, or null with a token command
     * @param tokenCommand a program printing an access token, or null with issuer and client id
     * @return the profile
     */
    public static Profile remote(Path file, Environment environment, java.net.URI server, java.net.URI issuer, String clientId,
                                 String tokenCommand) {
        return new Profile(file, environment, null, null, null, null, null, null, null, java.util.Map.of(), server, issuer, clientId,
                tokenCommand);
    }

    /** @return true when it names serve's API ({@code server}): remote mode, no store connection */
    public boolean remote() {
        return server != null;
    }

    /** @return true for a remote profile whose people sign in with the identity provider (issuer and client id) */
    public boolean signsInWithIssuer() {
        return server != null && issuer != null;
    }

    /** @return the profile's name (its file name without {@code .properties}) */
    public String name() {
        return environment.name();
    }

    /** @return true when it names external servers (both, never one: see {@link Profiles}) */
    public boolean external() {
        return jdbcUrl != null;
    }

    /**
     * @param base the configuration to start from (timeouts, background jobs, role)
     * @param password the database password (from {@link #passwordEnv()}, a prompt or the dialog), "" for none yet
     * @return base with this profile's servers, account and data directory
     * @throws IllegalStateException for a remote profile, which starts no engine
     */
    public EngineConfig apply(EngineConfig base, String password) {
        if (remote()) {
            // A remote profile never starts or reaches the stores; an engine config made from it would be the embedded one.
            throw new IllegalStateException(Messages.format("profile.error.remoteEngine", name()));
        }
        EngineConfig c = dataDir == null ? base : base.withDataDir(dataDir);
        if (!external()) {
            return c;
        }
        String user = dbUser != null ? dbUser : java.util.Objects.requireNonNullElse(System.getProperty("user.name"), "");
        return c.withServers(redisWithCredentials(), jdbcUrl, user, password);
    }

    /**
     * @return the Redis URI with the ACL user and the password from {@link #redisPasswordEnv()} put in
     * @throws IllegalArgumentException when the variable is named but not set
     */
    public String redisWithCredentials() {
        if (redisPasswordEnv == null && redisUser == null) {
            return redisUri;
        }
        String secret = "";
        if (redisPasswordEnv != null) {
            secret = System.getenv(redisPasswordEnv);
            if (secret == null) {
                throw new IllegalArgumentException(Messages.format("profile.error.redisPasswordUnset", redisPasswordEnv, name()));
            }
        }
        String enc = java.net.URLEncoder.encode(secret, java.nio.charset.StandardCharsets.UTF_8);
        String userInfo = (redisUser == null ? "" : java.net.URLEncoder.encode(redisUser, java.nio.charset.StandardCharsets.UTF_8))
                + (redisPasswordEnv == null ? "" : ":" + enc) + "@";
        int at = redisUri.indexOf("://") + 3;
        return redisUri.substring(0, at) + userInfo + redisUri.substring(at).replaceFirst("^[^/@]*@", "");
    }

    @Override
    public String toString() {
        return "Profile[" + name() + ", " + environment.kind().key() + (remote() ? ", server " + server : "") + ", " + file + "]";
    }
}

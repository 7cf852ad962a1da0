package com.orderconsole.app.remote;

/**
 * Where the bearer token sent to serve comes from in remote mode: a person's OIDC session (system browser with PKCE,
 * or the device grant at a terminal), a token command, or an environment variable. Implementations never log a
 * token and keep it in memory only.
 */
public interface AccessTokens {
    /**
     * @return an access token to send now, refreshed or fetched first when the one held is about to expire
     * @throws SignInRequiredException when no token can be had without the person signing in again (the session
     *     ended, the refresh was refused, the token command failed); its message says which, in words
     */
    String current();

    /**
     * Serve answered 401 to {@code token}: drop it, so the next {@link #current()} refreshes or asks again.
     *
     * @param token the token serve refused
     */
    void rejected(String token);

    /** Forgets every token held (sign-out); the next {@link #current()} needs a new sign-in. */
    void signOut();
}

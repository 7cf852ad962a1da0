package com.orderconsole.app.remote;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A token from an environment variable, as a script passes one: read when asked, refused ones never sent again. */
class EnvTokenTest {
    private final Map<String, String> env = new HashMap<>();
    private final EnvToken tokens = new EnvToken("CONSOLE_TOKEN", env::get);

    @Test
    void theVariableIsReadAndTrimmed() {
        env.put("CONSOLE_TOKEN", " abc.def-ghi_~+/== \n");
        assertThat(tokens.current()).isEqualTo("abc.def-ghi_~+/==");
    }

    @Test
    void anUnsetEmptyOrMalformedVariableIsSaidInWords() {
        assertThatThrownBy(tokens::check).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the environment variable CONSOLE_TOKEN is not set: put the access token in it, or sign in without --token-env");
        env.put("CONSOLE_TOKEN", "  ");
        assertThatThrownBy(tokens::current).isInstanceOf(SignInRequiredException.class)
                .hasMessage("the environment variable CONSOLE_TOKEN is empty: put the access token in it");
        env.put("CONSOLE_TOKEN", "Bearer secret-one");
        assertThatThrownBy(tokens::current).isInstanceOf(SignInRequiredException.class)
                .hasMessage("the environment variable CONSOLE_TOKEN does not hold an access token (only letters, digits and -._~+/= "
                        + "may be in one, on one line)");
    }

    @Test
    void aRefusedTokenIsNotSentAgainButANewOneIs() {
        env.put("CONSOLE_TOKEN", "old-token");
        tokens.rejected(tokens.current());
        assertThatThrownBy(tokens::current).isInstanceOf(SignInRequiredException.class)
                .hasMessage("serve refused the access token in CONSOLE_TOKEN (expired, revoked or not for this serve): put a new one "
                        + "in it and run the command again");

        env.put("CONSOLE_TOKEN", "new-token");
        assertThat(tokens.current()).isEqualTo("new-token");
    }

    @Test
    void afterSignOutNothingIsSent() {
        env.put("CONSOLE_TOKEN", "a-token");
        tokens.signOut();
        assertThatThrownBy(tokens::current).isInstanceOf(SignInRequiredException.class)
                .hasMessage("signed out: the token in CONSOLE_TOKEN is not sent again by this process");
    }
}

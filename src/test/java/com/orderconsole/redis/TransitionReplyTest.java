package com.orderconsole.redis;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** transition.lua answers one text "code,from,version,now"; anything else is an error that says what came back. */
class TransitionReplyTest {
    private final TransitionRequest pay = TransitionRequest.of("o-1", OrderStatus.PAID, "test", "");

    @Test
    void theScriptsReplyIsReadIntoTheOutcome() {
        TransitionResult r = TransitionScript.transitionResult(pay, "1,1,2,1764577000123");
        assertThat(r).isEqualTo(new TransitionResult("o-1", ResultCode.APPLIED, OrderStatus.WAIT_PAY, OrderStatus.PAID, 2, 1764577000123L));
        TransitionResult missing = TransitionScript.transitionResult(pay, "-1,0,0,1764577000124");
        assertThat(missing.code()).isEqualTo(ResultCode.STATE_MISSING);
        assertThat(missing.from()).isNull();
        assertThat(TransitionScript.transitionResult(pay, "-4,2,7,5").code()).isEqualTo(ResultCode.ALREADY_IN_STATUS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1,1,2", "1,1,2,3,4", "x,1,2,3", "1,7,2,3", "1,1,-2,3", "9,1,2,3", "1,1,2,", "1,1,2.0,3"})
    void aReplyNotInThatFormIsAClearError(String reply) {
        assertThatThrownBy(() -> TransitionScript.transitionResult(pay, reply))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("transition of order o-1: the transition script answered '" + reply + "', not 'code,from status,"
                        + "version,time in ms' (is the script Redis ran the one this version of the console loaded?)");
    }

    @Test
    void aTableOrAnIntegerReplyIsAClearErrorNotAClassCastException() {
        // What Lettuce's VALUE output does with a table of integers (the earlier script's reply) or an integer.
        CompletableFuture<String> table = CompletableFuture.failedFuture(
                new UnsupportedOperationException("io.lettuce.core.output.ValueOutput does not support set(long)"));
        assertThatThrownBy(() -> TransitionScript.transitionResult(pay, table).join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("transition of order o-1: the transition script answered a reply that is not one text "
                        + "(io.lettuce.core.output.ValueOutput does not support set(long)), not 'code,from status,version,time in ms' "
                        + "(is the script Redis ran the one this version of the console loaded?)");
        assertThatThrownBy(() -> TransitionScript.transitionResult(pay, (String) null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("answered nothing, not");
    }

    @Test
    void aRedisErrorPassesThroughAsItIs() {
        IllegalArgumentException redisError = new IllegalArgumentException("ERR target status abc is not a number");
        assertThatThrownBy(() -> TransitionScript.transitionResult(pay, CompletableFuture.<String>failedFuture(redisError)).join())
                .isInstanceOf(CompletionException.class).hasCause(redisError);
        assertThat(TransitionScript.transitionResult(pay, CompletableFuture.completedFuture("0,1,1,7")).join().code())
                .isEqualTo(ResultCode.NOT_ALLOWED);
    }
}

package com.orderconsole.domain;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

class FailuresTest {
    @Test
    void unwrapLooksThroughEveryFutureAndReflectionWrapperButNoFurther() {
        IllegalStateException said = new IllegalStateException("Redis at 127.0.0.1:6379 did not answer", new IOException("reset"));
        Throwable wrapped = new CompletionException(new ExecutionException(new InvocationTargetException(said)));
        assertThat(Failures.unwrap(wrapped)).isSameAs(said);
        assertThat(Failures.unwrap(said)).isSameAs(said);
        assertThat(Failures.unwrap(new CompletionException("no cause", null))).isInstanceOf(CompletionException.class);
    }

    @Test
    void rootIsTheLastCauseAndMessageFallsBackToTheClassName() {
        IOException root = new IOException();
        assertThat(Failures.root(new RuntimeException("a", new IllegalStateException("b", root)))).isSameAs(root);
        assertThat(Failures.message(root)).isEqualTo("IOException");
        assertThat(Failures.message(new IllegalStateException("words"))).isEqualTo("words");
    }
}

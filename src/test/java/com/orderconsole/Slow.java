package com.orderconsole;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that takes long (its own servers, a cluster, an outage of tens of seconds, the short soak). `mvn -B test`
 * runs it; `mvn -B test -Pfast` leaves it out so a developer gets the rest in a few minutes.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("slow")
public @interface Slow {
}

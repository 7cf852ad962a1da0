package com.orderconsole.service.transition;

import com.orderconsole.domain.TransitionResult;

/**
 * Told about every transition call of a {@link TransitionService} when it ends (the metrics count and
 * time them). Called on a Redis or worker thread: must be quick and must not throw.
 */
@FunctionalInterface
public interface TransitionObserver {
    /** Observes nothing. */
    TransitionObserver NONE = (result, failure, nanos) -> { };

    /**
     * @param result the outcome, or null when the call failed
     * @param failure why the call failed (e.g. Redis down), or null
     * @param nanos wall time of the call including any rebuild and retry, in nanoseconds
     */
    void transitionEnded(TransitionResult result, Throwable failure, long nanos);
}

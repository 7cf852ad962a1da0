package com.orderconsole.service.transition;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.TransitionRequest;

import java.time.Duration;

/**
 * Moves of single orders (normal moves, forced moves and admin overrides), as the console's move buttons and the
 * CLI's {@code transition} make them. Implemented in-process by {@link TransitionService} and over serve's HTTP API.
 */
public interface Transitions {
    /**
     * Applies a transition and waits until MySQL holds its recorded outcome (applied or rejected).
     *
     * @param operator who acts; written to the history
     * @param request what to do (target, expected version, override, reason)
     * @param mysqlWait how long to wait for MySQL, e.g. 30 s; the transition stands either way
     * @return the outcome and whether MySQL has it
     * @throws com.orderconsole.domain.PermissionDeniedException when the role is insufficient
     * @throws com.orderconsole.redis.RedisUnavailableException when Redis does not answer in time
     */
    TransitionOutcome transitionAndWait(Operator operator, TransitionRequest request, Duration mysqlWait);
}

package com.orderconsole.service.rules;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;

import java.time.Duration;
import java.util.Map;

/**
 * The transition rules: read, validate, replace, and change the stuck thresholds. Implemented in-process by
 * {@link RulesService} and over serve's HTTP API.
 */
public interface Rules {
    /** @return the rules in force (cached for at most a second) */
    TransitionRules current();

    /**
     * Validates a rules document without storing it.
     *
     * @param json the document
     * @return the rules it describes
     * @throws com.orderconsole.domain.InvalidRulesException naming every fault
     */
    TransitionRules validate(String json);

    /**
     * Replaces the rules (role ops or higher); the new version is the stored one + 1.
     *
     * @param operator who changes them
     * @param json the new document
     * @return the rules now in force
     * @throws com.orderconsole.domain.InvalidRulesException naming every fault; nothing stored changes then
     * @throws IllegalStateException when someone else set the rules meanwhile (reload and apply again)
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    TransitionRules set(Operator operator, String json);

    /**
     * Changes the stuck thresholds: the rules in force with these thresholds become the next version (role ops or higher).
     *
     * @param operator who changes them
     * @param thresholds per status a positive duration; a status left out is never counted as stuck
     * @return the rules now in force
     * @throws com.orderconsole.domain.InvalidRulesException when a threshold is not positive or set on a terminal status
     * @throws IllegalStateException when someone else set the rules meanwhile
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    TransitionRules setStuckThresholds(Operator operator, Map<OrderStatus, Duration> thresholds);
}

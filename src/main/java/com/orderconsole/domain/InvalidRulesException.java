package com.orderconsole.domain;

import java.util.List;

/** Thrown when a rule set is malformed or breaks a validity rule; the message lists every fault. */
public class InvalidRulesException extends IllegalArgumentException {
    private final List<RulesFault> details;

    /** @param faults one per fault, each naming the status or edge at fault (and its place in the document, if known) */
    public InvalidRulesException(List<RulesFault> faults) {
        super("invalid transition rules: " + String.join("; ", faults.stream().map(RulesFault::toString).toList()));
        this.details = List.copyOf(faults);
    }

    /** @return one English message per fault, with line and column where known */
    public List<String> faults() {
        return details.stream().map(RulesFault::toString).toList();
    }

    /** @return every fault, for a front end to put in words in its own language */
    public List<RulesFault> details() {
        return details;
    }
}

package com.orderconsole.domain;

import java.util.List;

/** Thrown when a rule set is malformed or breaks a validity rule; the message lists every fault. */
public class InvalidRulesException extends IllegalArgumentException {
    private final List<String> faults;

    /** @param faults one message per fault, each naming the status or edge at fault */
    public InvalidRulesException(List<String> faults) {
        super("invalid transition rules: " + String.join("; ", faults));
        this.faults = List.copyOf(faults);
    }

    /** @return one message per fault */
    public List<String> faults() {
        return faults;
    }
}

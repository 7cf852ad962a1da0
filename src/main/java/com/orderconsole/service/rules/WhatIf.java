package com.orderconsole.service.rules;

/**
 * The what-if of a rules change (read-only): what a document would do to the orders if applied now. Implemented
 * in-process by {@link RulesWhatIf} and over serve's HTTP API.
 */
public interface WhatIf {
    /**
     * @param json a rules document, as {@link Rules#set} takes it; it need not be valid
     * @return the impact with the document's faults; {@link RulesImpact#readable()} is false for a document that is not JSON
     */
    RulesImpact whatIf(String json);
}

package com.orderconsole.domain;

/**
 * Who is acting: a name written into the status history and a role checked by the service layer.
 *
 * @param name operator name, 1-64 printable characters
 * @param role what the operator may do
 */
public record Operator(String name, Role role) {
    public Operator {
        if (name == null || name.isBlank() || name.length() > 64 || name.chars().anyMatch(c -> c < 0x20)) {
            throw new IllegalArgumentException("operator name must be 1-64 printable characters");
        }
        if (role == null) {
            throw new IllegalArgumentException("operator role is missing");
        }
    }

    /** The identity used by background jobs (sweeper, sync, importer). */
    public static Operator system(String name) {
        return new Operator(name, Role.ADMIN);
    }
}

package com.orderconsole.domain;

import java.util.Locale;

/**
 * What an operator may do. Each role includes everything the roles before it may do:
 * READ_ONLY looks; SUPPORT applies transitions allowed by the rules; OPS also works the cancel
 * queue, repairs reconciliation findings, runs sync and changes the rules; ADMIN also overrides.
 */
public enum Role {
    READ_ONLY,
    SUPPORT,
    OPS,
    ADMIN;

    /** @return true when this role includes {@code other} */
    public boolean includes(Role other) {
        return ordinal() >= other.ordinal();
    }

    /** @return the role for people: "read-only", "support", "ops" or "admin" */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param text a role name, case-insensitive, '-' allowed for '_'
     * @return the role
     * @throws IllegalArgumentException naming the input when no role has that name
     */
    public static Role parse(String text) {
        String n = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (Role r : values()) {
            if (r.name().equals(n)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown role '" + text + "' (expected read_only, support, ops or admin)");
    }
}

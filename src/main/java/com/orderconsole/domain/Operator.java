package com.orderconsole.domain;

/**
 * Who is acting: a name written into the status history and a role checked by the service layer.
 *
 * @param name operator name, 1-64 printable characters: the signed-in database account, or the OS user
 *     on local servers
 * @param role what the operator may do
 * @param local true when nobody signed in: the servers are the OS user's own (embedded), and that user is
 *     their administrator
 */
public record Operator(String name, Role role, boolean local) {
    public Operator {
        if (name == null || name.isBlank() || name.length() > 64 || name.chars().anyMatch(c -> c < 0x20)) {
            throw new IllegalArgumentException("operator name must be 1-64 printable characters");
        }
        if (role == null) {
            throw new IllegalArgumentException("operator role is missing");
        }
    }

    /**
     * The cancel sweeper's name in the history. Its one move is WAIT_PAY → CANCELLED; the follower sets aside an entry
     * in its name that is any other.
     */
    public static final String CANCEL_SWEEPER = "cancel-sweeper";

    /** An operator who signed in (not local). */
    public Operator(String name, Role role) {
        this(name, role, false);
    }

    /** The identity used by background jobs (sweeper, sync, importer). */
    public static Operator system(String name) {
        return new Operator(name, Role.ADMIN);
    }

    /** @return e.g. "alice · support", or "alice · admin (local)" when nobody signed in */
    public String describe() {
        return name + " · " + role.label() + (local ? " (local)" : "");
    }
}

package com.orderconsole.app;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.store.AccountRefusedException;
import com.orderconsole.store.ConsoleRoles;
import com.orderconsole.store.DatabaseAccounts.Account;
import com.orderconsole.store.DatabaseAccounts;

import java.util.Objects;

/**
 * Who works through an engine. Against external servers an operator signs in with their own database
 * account: the name recorded in the history is the account the server authenticated, and the role is the
 * highest console database role it holds ({@link ConsoleRoles}), lowered on request but never raised.
 * On local servers (embedded, or marked {@link EngineConfig#localIdentity()}) nobody signs in: the OS
 * user is the local admin.
 */
public final class SignIn {
    private SignIn() {
    }

    /**
     * Checks a configuration's account against its database without starting anything else; the sign-in
     * dialog uses it to check a password before the engine starts.
     *
     * @param config servers, account, password and the role asked for
     * @return who the engine started with this configuration acts as
     * @throws SignInException when the account may not sign in, in words
     * @throws com.orderconsole.store.DatabaseUnavailableException when the database cannot be reached
     */
    public static Operator verify(EngineConfig config) {
        if (!config.signInRequired()) {
            return local(config.role());
        }
        Account account;
        try {
            account = DatabaseAccounts.signIn(config.jdbcUrl(), Objects.requireNonNullElse(config.dbUser(), ""),
                    Objects.requireNonNullElse(config.dbPassword(), ""), config.commandTimeout());
        } catch (AccountRefusedException e) {
            throw new SignInException(e.getMessage(), e);
        }
        return operator(account, config.role());
    }

    /** @return the OS user as the local admin, in the role asked for (admin when none) */
    static Operator local(Role requested) {
        Role role = requested == null ? Role.ADMIN : requested;
        String name = Objects.requireNonNullElse(System.getProperty("user.name"), "operator");
        try {
            return new Operator(name, role, true);
        } catch (IllegalArgumentException e) {
            return new Operator("operator", role, true);
        }
    }

    /**
     * @param account the signed-in account
     * @param requested the role asked for, or null for the highest the account holds
     * @return the operator
     * @throws SignInException when the account holds no console role, its role is not in force at sign-in,
     *     or more is asked for than it holds
     */
    static Operator operator(Account account, Role requested) {
        String who = Messages.format("signin.who", account.name());
        if (account.held() == null) {
            throw new SignInException(Messages.format("signin.noRole", who, String.join(", ", ConsoleRoles.names()),
                    ConsoleRoles.name(Role.SUPPORT), account.grantee()), null);
        }
        String held = ConsoleRoles.name(account.held());
        if (account.active() != account.held()) {
            // The server enforces the role in force, so working in another would fail half-way.
            throw new SignInException(Messages.format("signin.notInForce", who, held, account.active() == null
                    ? Messages.get("signin.noConsoleRole") : ConsoleRoles.name(account.active()), account.grantee(),
                    java.util.Objects.requireNonNullElse(account.defaultRole(), held)), null);
        }
        if (requested != null && !account.held().includes(requested)) {
            throw new SignInException(Messages.format("signin.tooHigh", requested.label(), who, account.held().label()), null);
        }
        try {
            return new Operator(account.name(), requested == null ? account.held() : requested, false);
        } catch (IllegalArgumentException e) {
            throw new SignInException(Messages.format("signin.badName", who, e.getMessage()), e);
        }
    }
}

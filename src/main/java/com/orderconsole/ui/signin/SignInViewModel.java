package com.orderconsole.ui.signin;

import com.orderconsole.app.Messages;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.SignIn;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.common.Background;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The sign-in dialog's model. Against external servers the operator signs in with their own database
 * account; the password is checked against the database before the console starts its engine, and a
 * refusal is shown in words (wrong password, no console role, a role higher than the account holds).
 * On local servers nobody signs in.
 */
public final class SignInViewModel {
    private final EngineConfig config;
    private final Background background;
    private final StringProperty account = new SimpleStringProperty("");
    private final StringProperty password = new SimpleStringProperty("");
    private final ObjectProperty<Role> role = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(false);

    /**
     * @param config the servers; its account (e.g. from --db-user) and role fill the form
     * @param background where the check against the database runs
     */
    public SignInViewModel(EngineConfig config, Background background) {
        this(config, background, false);
    }

    /**
     * @param config the servers; its account and role fill the form
     * @param background where the check against the database runs
     * @param offerLowestRole true on production: the role offered is read-only, the lowest every console
     *     account holds, and working in a higher one is a choice made on purpose
     */
    public SignInViewModel(EngineConfig config, Background background, boolean offerLowestRole) {
        this.config = config;
        this.background = background;
        account.set(Objects.requireNonNullElse(config.signInRequired() ? config.dbUser() : null,
                Objects.requireNonNullElse(System.getProperty("user.name"), "")));
        role.set(config.role() == null && offerLowestRole ? Role.READ_ONLY : config.role());
    }

    /**
     * Signs in without asking when there is nothing to ask: on local servers at once; with a password
     * already given (e.g. from --db-password-env) after checking it. Otherwise, or when that password is
     * refused (the reason is then in {@link #errorProperty()}), the dialog must ask.
     *
     * @param signedIn receives the configuration to start the engine with and who will be working
     * @param ask opens the dialog
     */
    public void begin(BiConsumer<EngineConfig, Operator> signedIn, Runnable ask) {
        if (!config.signInRequired()) {
            signedIn.accept(config, SignIn.verify(config));
        } else if (config.dbPassword() == null || config.dbPassword().isEmpty()) {
            ask.run();
        } else {
            check(config, signedIn, ask);
        }
    }

    /**
     * Checks the account and password typed, in the role chosen, against the database.
     *
     * @param signedIn receives the configuration with the account, password and role, and who will be
     *     working; not called when the database refuses (the reason is in {@link #errorProperty()})
     */
    public void signIn(BiConsumer<EngineConfig, Operator> signedIn) {
        String name = account.get() == null ? "" : account.get().strip();
        if (name.isEmpty()) {
            error.set(Messages.get("signin.noAccount"));
            return;
        }
        if (password.get() == null || password.get().isEmpty()) {
            error.set(Messages.format("signin.noPassword", name));
            return;
        }
        check(config.withAccount(name, password.get()).withRole(role.get()), signedIn, () -> { });
    }

    private void check(EngineConfig candidate, BiConsumer<EngineConfig, Operator> signedIn, Runnable refused) {
        busy.set(true);
        error.set("");
        background.run(Messages.get("signin.action"), job -> SignIn.verify(candidate), operator -> {
            busy.set(false);
            password.set("");
            signedIn.accept(candidate, operator);
        }, text -> {
            busy.set(false);
            password.set("");
            error.set(text);
            refused.run();
        });
    }

    /** @return the database the operator signs in to, e.g. "db.example.com:3306/orders" */
    public String database() {
        return config.databaseWhere();
    }

    /** @return the database account name typed (prefilled from --db-user or the OS user name) */
    public StringProperty accountProperty() {
        return account;
    }

    /** @return the password typed; cleared after every check */
    public StringProperty passwordProperty() {
        return password;
    }

    /** @return the role to work in, lower than the account's only; null for the highest it holds */
    public ObjectProperty<Role> roleProperty() {
        return role;
    }

    /** @return why the last sign-in failed, in words; "" when it did not */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** @return true while the database is being asked */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }
}

package com.orderconsole.ui;

import com.orderconsole.api.ServeFixture;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.app.remote.RemoteServices;
import com.orderconsole.app.remote.ServeClient;
import com.orderconsole.app.remote.TestTokens;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.bulk.Bulk;
import com.orderconsole.service.deadletter.DeadLetters;
import com.orderconsole.service.queue.CancelQueue;
import com.orderconsole.service.recon.Reconciliation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;

import java.net.URI;

/**
 * Base of a page's view-model tests that run twice (the subclass is a {@code @ParameterizedClass} over {@link Mode}): on the
 * in-process services, and through serve's API on the same stores, as a console on a remote profile has them. Tests set
 * their data up with {@link #services} either way; the page's capability comes from the methods here, acting as the
 * operator the page acts as. Serve here takes a person by name and role ({@link ServeFixture#person}), so the history and
 * the messages name the same person in both modes and one set of assertions holds for both.
 */
public abstract class BothModes extends ViewModelTestBase {
    /** Where the page's services run. */
    public enum Mode {
        LOCAL, REMOTE
    }

    @Parameter
    protected Mode mode;
    private ServeFixture serve;

    @BeforeEach
    void startServe() {
        if (viaServe()) {
            serve = ServeFixture.on(services);
        }
    }

    @AfterEach
    void stopServe() {
        if (serve != null) {
            serve.close();
        }
    }

    /** @return serve's client acting as {@code who} (its name and role, as a signed-in person) */
    protected ServeClient client(Operator who) {
        return new ServeClient(URI.create(serve.base()), new TestTokens(ServeFixture.person(who.name(), who.role())));
    }

    /** @return true when the page's capabilities run through serve (this base's own serve, acting as the named person) */
    protected boolean viaServe() {
        return mode == Mode.REMOTE;
    }

    /** @return the console's services acting as {@code who}: the in-process ones, or {@link RemoteServices} on serve */
    protected ConsoleServices consoleServices(Operator who) {
        return viaServe() ? new RemoteServices(client(who)) : services;
    }

    protected CancelQueue queue(Operator who) {
        return consoleServices(who).queue();
    }

    protected Reconciliation reconciliation(Operator who) {
        return consoleServices(who).reconciliation();
    }

    protected Bulk bulk(Operator who) {
        return consoleServices(who).bulk();
    }

    protected Audit audit(Operator who) {
        return consoleServices(who).audit();
    }

    protected DeadLetters deadLetters(Operator who) {
        return consoleServices(who).deadLetters();
    }
}

package com.orderconsole.ui;

import com.orderconsole.api.ServeFixture;
import com.orderconsole.app.remote.RemoteAudit;
import com.orderconsole.app.remote.RemoteBulk;
import com.orderconsole.app.remote.RemoteCancelQueue;
import com.orderconsole.app.remote.RemoteDeadLetters;
import com.orderconsole.app.remote.RemoteReconciliation;
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
 * operator the page acts as.
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
        if (mode == Mode.REMOTE) {
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

    protected boolean remote() {
        return mode == Mode.REMOTE;
    }

    protected CancelQueue queue(Operator who) {
        return remote() ? new RemoteCancelQueue(client(who)) : services.queue();
    }

    protected Reconciliation reconciliation(Operator who) {
        return remote() ? new RemoteReconciliation(client(who)) : services.reconciliation();
    }

    protected Bulk bulk(Operator who) {
        return remote() ? new RemoteBulk(client(who)) : services.bulk();
    }

    protected Audit audit(Operator who) {
        return remote() ? new RemoteAudit(client(who)) : services.audit();
    }

    protected DeadLetters deadLetters(Operator who) {
        return remote() ? new RemoteDeadLetters(client(who)) : services.deadLetters();
    }
}

package com.orderconsole.ui.main;

import com.orderconsole.app.remote.RemoteHarness;
import com.orderconsole.app.remote.RemoteServices;
import com.orderconsole.app.remote.RemoteStart;
import com.orderconsole.app.remote.TestTokens;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.DirectBackground;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console over serve when the network gives trouble: the status bar says in words that serve did not answer, then
 * that it answers again, and works on by itself with no action of the user; the start asks serve who is signed in.
 */
class RemoteStatusBarTest {
    private final DirectBackground background = new DirectBackground();
    private RemoteHarness serve;

    @BeforeEach
    void start() {
        serve = RemoteHarness.fresh();
    }

    @AfterEach
    void stop() {
        serve.close();
    }

    @Test
    void serveStoppedIsSaidInWordsAndTheBarRecoversByItselfWhenServeIsBack() {
        RemoteServices remote = serve.as(Role.SUPPORT);
        StatusBarViewModel bar = new StatusBarViewModel(remote.health(), remote.deadLetters(), background);
        bar.check();
        assertThat(bar.healthProperty().get().mysqlUp()).isTrue();
        assertThat(bar.warnings()).noneMatch(w -> w.startsWith("serve at"));

        serve.stopServe();
        bar.check();
        assertThat(bar.warnings()).singleElement().satisfies(w -> assertThat(w).contains("serve at " + serve.base()
                + " refused the connection (it is not running there, or the address is wrong)"));
        assertThat(bar.healthProperty().get().redisUp()).as("unknown while serve does not answer").isFalse();
        bar.check();
        assertThat(bar.warnings()).as("said again on each check while it lasts").hasSize(1);

        serve.startServe(); // serve restarted on its address
        bar.check();
        assertThat(bar.healthProperty().get().mysqlUp()).isTrue();
        assertThat(bar.healthProperty().get().redisUp()).isTrue();
        assertThat(bar.warnings()).first().satisfies(w -> assertThat(w).startsWith("serve at " + serve.base()
                + " answers again (it did not for "));
        assertThat(bar.warnings()).filteredOn(w -> w.startsWith("serve at")).hasSize(1);
    }

    @Test
    void theStartAsksServeWhoIsSignedInForTheBandAndSaysWhenServeIsNotThere() {
        StartViewModel start = new StartViewModel(background);
        AtomicReference<Operator> who = new AtomicReference<>();
        start.startRemote(new RemoteStart(URI.create(serve.base()), new TestTokens(serve.token(Role.OPS)),
                com.orderconsole.domain.Environment.LOCAL), (services, operator) -> who.set(operator));
        assertThat(who.get()).isEqualTo(new Operator(RemoteHarness.actor(Role.OPS), Role.OPS));
        assertThat(MainViewModel.operatorText(who.get())).isEqualTo("sso:console-ops via console-web · ops");

        serve.stopServe();
        StartViewModel again = new StartViewModel(background);
        again.startRemote(new RemoteStart(URI.create(serve.base()), new TestTokens(serve.token(Role.OPS)),
                com.orderconsole.domain.Environment.LOCAL), (services, operator) -> who.set(null));
        assertThat(who.get()).as("nothing handed over").isNotNull();
        assertThat(again.failureProperty().get()).contains("serve at " + serve.base() + " refused the connection");
    }
}

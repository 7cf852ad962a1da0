package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.store.ConsoleRoles;
import com.orderconsole.store.Database;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The account that ran 'migrate' is dropped while serve runs: the triggers the follower's statements fire run as it, so
 * every batch fails. The follower's error says so in words, with the way out, and not the server's "The user specified
 * as a definer ... does not exist".
 */
@Slow
class DroppedDefinerFollowerTest {
    private static final String SCHEMA = EmbeddedMariaDb.SCHEMA + "_definer_gone";

    private static EngineConfig on(String url, String account) {
        return EngineConfig.embeddedDefault().withServers(TestServers.redis().uri(), url, account, "pw-" + account)
                .withBackgroundJobs(null, null).withCommandTimeout(Duration.ofSeconds(5));
    }

    @Test
    void theFollowersErrorNamesTheDroppedDefinerAndTheWayOut() {
        AccessControlledDb.reset();
        String url = AccessControlledDb.server().jdbcUrl().replace("/" + EmbeddedMariaDb.SCHEMA + "?", "/" + SCHEMA + "?");
        AccessControlledDb.root(st -> {
            st.execute("DROP DATABASE IF EXISTS " + SCHEMA);
            st.execute("DROP USER IF EXISTS 'gone_dba'@'%'");
            st.execute("CREATE DATABASE " + SCHEMA + " CHARACTER SET utf8mb4");
            st.execute("CREATE USER 'gone_dba'@'%' IDENTIFIED BY 'pw-gone_dba'");
            st.execute("GRANT ALL PRIVILEGES ON *.* TO 'gone_dba'@'%' WITH GRANT OPTION");
            for (String role : ConsoleRoles.names()) {
                st.execute("GRANT " + role + " TO 'gone_dba'@'%' WITH ADMIN OPTION");
            }
            st.execute("GRANT " + ConsoleRoles.FOLLOWER + " TO 'gone_dba'@'%' WITH ADMIN OPTION");
        });
        try {
            Database.migrate(url, "gone_dba", "pw-gone_dba", Duration.ofSeconds(20));
            try (Engine fred = Engine.start(on(url, AccessControlledDb.FOLLOWER))) {
                fred.services().follower().drainOnce(); // signed in as the follower while its definer is there
                try (Engine olga = Engine.start(on(url, "olga"))) {
                    olga.services().orders().create(olga.operator(), "dg-1", null, Duration.ofMinutes(30));
                    assertThat(olga.services().transitions().transition(olga.operator(),
                            TransitionRequest.of("dg-1", OrderStatus.PAID, "test", "paid")).applied()).isTrue();
                }
                AccessControlledDb.root(st -> st.execute("DROP USER 'gone_dba'@'%'"));
                Throwable e = catchThrowable(() -> fred.services().follower().drainOnce());
                assertThat(e).isNotNull();
                assertThat(e.getMessage()).contains("the account that ran 'migrate'").contains("runs 'order-console migrate' again")
                        .doesNotContain("specified as a definer");
            }
        } finally {
            AccessControlledDb.root(st -> {
                st.execute("DROP DATABASE IF EXISTS " + SCHEMA);
                st.execute("DROP USER IF EXISTS 'gone_dba'@'%'");
            });
            TestServers.reset(); // the Redis data set was paired with the schema dropped here
        }
    }
}

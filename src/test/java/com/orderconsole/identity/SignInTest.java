package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.SignIn;
import com.orderconsole.app.SignInException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Who works through an engine comes from the database account, never from what the operator says. */
@Slow
class SignInTest {
    @BeforeEach
    void reset() {
        AccessControlledDb.reset();
    }

    @Test
    void eachAccountWorksAsItselfInTheHighestRoleItHolds() {
        for (Map.Entry<String, Role> a : AccessControlledDb.ACCOUNTS.entrySet()) {
            try (Engine e = Engine.start(AccessControlledDb.config(a.getKey()))) {
                assertThat(e.operator()).isEqualTo(new Operator(a.getKey(), a.getValue(), false));
            }
        }
        try (Engine e = Engine.start(AccessControlledDb.config("rita"))) {
            assertThat(e.operator().describe()).isEqualTo("rita · read-only");
        }
    }

    @Test
    void aRoleCanBeLoweredButNeverRaised() {
        try (Engine e = Engine.start(AccessControlledDb.config("ada").withRole(Role.SUPPORT))) {
            assertThat(e.operator()).isEqualTo(new Operator("ada", Role.SUPPORT, false));
        }
        assertThatThrownBy(() -> Engine.start(AccessControlledDb.config("sam").withRole(Role.OPS)))
                .isInstanceOf(SignInException.class)
                .hasMessage("role ops is more than database account 'sam' holds (support); a role can only be lowered");
    }

    @Test
    void refusedSignInsSayWhyAndChangeNothing() {
        try (Engine admin = Engine.start(AccessControlledDb.config("ada"))) {
            admin.services().orders().create(admin.operator(), "o-1", null, Duration.ofMinutes(30));
            admin.services().follower().catchUp(Duration.ofSeconds(10));
        }
        List<Long> before = stored();

        assertRefused(AccessControlledDb.config("sam", "wrong"),
                "the database at 127.0.0.1:" + AccessControlledDb.server().port() + "/orders refused account 'sam': "
                        + "wrong password, or no such account");
        assertRefused(AccessControlledDb.config("nobody", "pw"), "refused account 'nobody': wrong password, or no such account");
        assertRefused(AccessControlledDb.config("sam", ""), "refused account 'sam': no password was given");
        assertRefused(AccessControlledDb.config(AccessControlledDb.NO_ROLE),
                "database account 'nora' holds none of the console roles (order_console_read_only, order_console_support, "
                        + "order_console_ops, order_console_admin); an administrator grants one, e.g. "
                        + "GRANT order_console_support TO 'nora'@'%'");
        assertRefused(AccessControlledDb.config(AccessControlledDb.NO_DEFAULT_ROLE),
                "database account 'dora' holds order_console_ops, but no console role is in force when it signs in; "
                        + "an administrator makes order_console_ops its default role: "
                        + "SET DEFAULT ROLE order_console_ops FOR 'dora'@'%' (MariaDB)");
        assertRefused(AccessControlledDb.config("rita").withRole(Role.SUPPORT), "role support is more than database account "
                + "'rita' holds (read-only); a role can only be lowered");

        assertThat(stored()).isEqualTo(before);
    }

    @Test
    void aServerThatDoesNotCheckAccountsCannotSignAnyoneIn() {
        EngineConfig noAccessControl = EngineConfig.embeddedDefault()
                .withServers(TestServers.redis().uri(), TestServers.mariaDb().jdbcUrl(), "ada", "pw-ada")
                .withBackgroundJobs(null, null);
        assertRefused(noAccessControl, "does not check accounts (it runs without grant tables), so it cannot tell who "
                + "signs in; use a server with access control");
    }

    @Test
    void onLocalServersTheOsUserIsTheAdminWithoutSigningIn() {
        String me = System.getProperty("user.name");
        try (Engine e = Engine.start(TestServers.config())) {
            assertThat(e.operator()).isEqualTo(new Operator(me, Role.ADMIN, true));
            assertThat(e.operator().describe()).isEqualTo(me + " · admin (local)");
        }
        assertThat(SignIn.verify(TestServers.config().withRole(Role.READ_ONLY)).describe()).isEqualTo(me + " · read-only (local)");
    }

    private static void assertRefused(EngineConfig config, String message) {
        assertThatThrownBy(() -> Engine.start(config)).isInstanceOf(SignInException.class).hasMessageContaining(message);
        assertThatThrownBy(() -> SignIn.verify(config)).isInstanceOf(SignInException.class).hasMessageContaining(message);
    }

    /** @return row counts of every table and the number of Redis keys */
    private static List<Long> stored() {
        try (RawRedis redis = new RawRedis()) {
            return List.of(AccessControlledDb.count("SELECT COUNT(*) FROM orders"),
                    AccessControlledDb.count("SELECT COUNT(*) FROM order_history"),
                    AccessControlledDb.count("SELECT COUNT(*) FROM transition_rules"),
                    AccessControlledDb.count("SELECT COUNT(*) FROM sync_cursor"),
                    AccessControlledDb.count("SELECT COUNT(*) FROM mysql.user"),
                    redis.cmd().dbsize());
        }
    }
}

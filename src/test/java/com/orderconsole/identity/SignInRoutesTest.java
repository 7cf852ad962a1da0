package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.SignIn;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.store.ConsoleRoles;
import com.orderconsole.store.SqlDialect;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sign-in through the URLs of a replicated or load-balanced MySQL, and through a role an account reaches by way of
 * another role (a team's role granted a console role), on a server with grant tables.
 */
@Slow
class SignInRoutesTest {
    @BeforeEach
    void reset() {
        AccessControlledDb.reset();
    }

    @Test
    void replicationAndLoadBalancedUrlsSignInAndWork() {
        int port = AccessControlledDb.server().port();
        String hosts = "127.0.0.1:" + port + ",127.0.0.1:" + port;
        for (String url : new String[] {
                "jdbc:mysql:replication://" + hosts + "/orders?sslMode=DISABLED&allowPublicKeyRetrieval=true",
                "jdbc:mysql:loadbalance://" + hosts + "/orders?sslMode=DISABLED&allowPublicKeyRetrieval=true"}) {
            var config = AccessControlledDb.config("sam").withServers(TestServers.redis().uri(), url, "sam", "pw-sam");
            assertThat(SignIn.verify(config)).isEqualTo(new Operator("sam", Role.SUPPORT, false));
            try (Engine e = Engine.start(config)) {
                e.services().orders().create(e.operator(), "ha-" + url.charAt(11), null, Duration.ofMinutes(30));
                e.services().follower().catchUp(Duration.ofSeconds(10));
            }
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'ha-%'")).isEqualTo(2);
    }

    @Test
    void aConsoleRoleReachedThroughTheDefaultTeamRoleCounts() {
        AccessControlledDb.root(st -> {
            st.execute("DROP USER IF EXISTS 'lena'@'%'");
            st.execute("DROP ROLE IF EXISTS team_lead");
            st.execute("CREATE ROLE team_lead");
            st.execute("GRANT " + ConsoleRoles.name(Role.OPS) + " TO team_lead");
            st.execute("CREATE USER 'lena'@'%' IDENTIFIED BY 'pw-lena'");
            st.execute("GRANT team_lead TO 'lena'@'%'");
            st.execute(SqlDialect.of(st.getConnection()).setDefaultRole("team_lead", "'lena'@'%'"));
        });
        assertThat(SignIn.verify(AccessControlledDb.config("lena"))).isEqualTo(new Operator("lena", Role.OPS, false));
        try (Engine e = Engine.start(AccessControlledDb.config("lena"))) {
            assertThat(e.operator().role()).isEqualTo(Role.OPS);
        }
    }

    /**
     * Issue 33: an account that reaches its console role through a team's role, with no default role, is refused with
     * a statement that works. The hint named the console role itself, which MariaDB refuses for an account that holds
     * it only through another role ("Invalid role specification").
     */
    @Test
    void theDefaultRoleHintForANestedRoleNamesAStatementThatWorks() {
        AccessControlledDb.root(st -> {
            st.execute("DROP USER IF EXISTS 'nina'@'%'");
            st.execute("DROP ROLE IF EXISTS night_shift");
            st.execute("CREATE ROLE night_shift");
            st.execute("GRANT " + ConsoleRoles.name(Role.SUPPORT) + " TO night_shift");
            st.execute("CREATE USER 'nina'@'%' IDENTIFIED BY 'pw-nina'");
            st.execute("GRANT night_shift TO 'nina'@'%'");
        });
        String refused = org.junit.jupiter.api.Assertions.assertThrows(com.orderconsole.app.SignInException.class,
                () -> SignIn.verify(AccessControlledDb.config("nina"))).getMessage();
        java.util.regex.Matcher hint = java.util.regex.Pattern.compile("SET DEFAULT ROLE \\S+ FOR '[^']*'@'[^']*'").matcher(refused);
        assertThat(hint.find()).as(refused).isTrue();
        assertThat(hint.group()).isEqualTo("SET DEFAULT ROLE night_shift FOR 'nina'@'%'");
        AccessControlledDb.root(st -> st.execute(hint.group()));
        assertThat(SignIn.verify(AccessControlledDb.config("nina"))).isEqualTo(new Operator("nina", Role.SUPPORT, false));
    }
}

package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import com.orderconsole.service.importer.ImportProgress;
import com.orderconsole.service.importer.ImportReport;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.transition.TransitionOutcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The service layer run by each console account, with the database enforcing that account's grants. */
@Slow
class ServicesUnderRolesTest {
    /** The default rules plus PAID -> CANCELLED. */
    private static final String RULES = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
            + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";

    @BeforeEach
    void seeded() {
        AccessControlledDb.reset();
        // Seeding the rules writes their archive: an ops or admin session's first start does it.
        Engine.start(AccessControlledDb.config("ada")).close();
    }

    @Test
    void aSupportAccountAppliesATransitionAndTheFollowerWritesItUnderTheAccountsName() {
        // The follower runs under serve's service account (issue 25), here in the same JVM.
        try (Engine serve = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER).withBackgroundJobs(null, Duration.ofMillis(50)));
             Engine e = Engine.start(AccessControlledDb.config("sam"))) {
            Services s = e.services();
            s.orders().create(e.operator(), "s-1", null, Duration.ofMinutes(30));
            TransitionOutcome out = s.transitions().transitionAndWait(e.operator(),
                    new TransitionRequest("s-1", OrderStatus.PAID, null, "test", "paid by phone", false), Duration.ofSeconds(10));
            assertThat(out.result().applied()).isTrue();
            assertThat(out.mysqlSynced()).as(String.valueOf(out.mysql())).isTrue();

            OrderDetails d = s.orders().lookup("s-1");
            assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
            assertThat(d.history()).extracting(HistoryEntry::actor).containsOnly("sam");
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE order_id = 's-1' AND actor = 'sam'"))
                .isEqualTo(2);
    }

    @Test
    void aReadOnlyAccountLooksButEveryWriteIsRefusedInWords() {
        try (Engine admin = Engine.start(AccessControlledDb.config("ada"))) {
            admin.services().orders().create(admin.operator(), "r-1", null, Duration.ofMinutes(30));
            admin.services().follower().catchUp(Duration.ofSeconds(10));
        }
        long history = AccessControlledDb.count("SELECT COUNT(*) FROM order_history");
        try (Engine e = Engine.start(AccessControlledDb.config("rita"))) {
            Services s = e.services();
            assertThat(s.orders().lookup("r-1").summary().mysqlStatus()).isEqualTo(OrderStatus.WAIT_PAY);

            assertThatThrownBy(() -> s.transitions().transitionAndWait(e.operator(),
                    new TransitionRequest("r-1", OrderStatus.PAID, null, "test", "", false), Duration.ofSeconds(5)))
                    .isInstanceOf(PermissionDeniedException.class).hasMessageStartingWith("rita (read_only) may not");
            assertThatThrownBy(() -> s.orders().create(e.operator(), "r-2", null, Duration.ofMinutes(30)))
                    .isInstanceOf(PermissionDeniedException.class);

            // Past the service's role check (an operator claiming more than the account holds), the database refuses.
            Operator claimsOps = new Operator("rita", Role.OPS);
            assertThatThrownBy(() -> s.rules().set(claimsOps, RULES))
                    .hasMessage("the database refused INSERT on table transition_rules to account 'rita': none of its roles grants it");
            assertThat(s.rules().current().version()).isEqualTo(1);
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history")).isEqualTo(history);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM transition_rules")).isEqualTo(1);
    }

    @Test
    void anOpsAccountImportsOrdersWithTheirHistoryUnderItsGrants() {
        String csv = "order_id,customer_id,order_status,order_purchase_timestamp,order_approved_at,order_delivered_carrier_date,"
                + "order_delivered_customer_date,order_estimated_delivery_date\n"
                + "i-1,c1,delivered,2017-10-02 10:56:33,2017-10-02 11:07:15,2017-10-04 19:55:00,2017-10-10 21:25:13,\n"
                + "i-2,c2,shipped,2017-10-02 10:56:33,2017-10-03 08:00:00,2017-10-04 09:00:00,,\n";
        try (Engine e = Engine.start(AccessControlledDb.config("olga"))) {
            ImportReport r = e.services().importer().importCsv(e.operator(), new StringReader(csv), "test.csv", ImportProgress.NONE);
            assertThat(r.imported()).as(String.valueOf(r.problems())).isEqualTo(2);
            assertThat(e.services().orders().lookup("i-2").summary().mysqlStatus()).isEqualTo(OrderStatus.SHIPPED);
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE order_id IN ('i-1', 'i-2')")).isPositive();
    }

    @Test
    void onlyOpsAndAboveMayChangeTheRules() {
        try (Engine e = Engine.start(AccessControlledDb.config("sam"))) {
            assertThatThrownBy(() -> e.services().rules().set(e.operator(), RULES)).isInstanceOf(PermissionDeniedException.class);
            Operator claimsOps = new Operator("sam", Role.OPS);
            assertThatThrownBy(() -> e.services().rules().set(claimsOps, RULES))
                    .hasMessage("the database refused INSERT on table transition_rules to account 'sam': none of its roles grants it");
        }
        try (Engine e = Engine.start(AccessControlledDb.config("olga"))) {
            assertThat(e.services().rules().set(e.operator(), RULES).version()).isEqualTo(2);
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM transition_rules WHERE version = 2 AND set_by = 'olga'")).isEqualTo(1);
    }
}

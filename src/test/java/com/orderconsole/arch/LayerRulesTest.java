package com.orderconsole.arch;

import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.transition.TransitionService;
import com.orderconsole.store.OrderStore;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.apache.ibatis.annotations.Delete;
import org.apache.ibatis.annotations.Update;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Locale;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** Dependencies point one way: domain ← redis/store ← service ← app ← ui, cli. */
class LayerRulesTest {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = ProductClasses.get();
    }

    @Test
    void domainHasNoIoAndNoOuterLayer() {
        noClasses().that().resideInAPackage("com.orderconsole.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.redis..", "com.orderconsole.store..",
                        "com.orderconsole.service..", "com.orderconsole.app..", "com.orderconsole.ui..", "com.orderconsole.cli..",
                        "io.lettuce..", "org.apache.ibatis..", "java.sql..", "javafx..", "java.net..", "java.nio.file..")
                .check(classes);
    }

    @Test
    void storageLayersDoNotReachUp() {
        noClasses().that().resideInAnyPackage("com.orderconsole.redis..", "com.orderconsole.store..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.service..", "com.orderconsole.app..",
                        "com.orderconsole.ui..", "com.orderconsole.cli..", "javafx..")
                .check(classes);
        noClasses().that().resideInAPackage("com.orderconsole.redis..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.store..", "org.apache.ibatis..", "java.sql..")
                .check(classes);
        noClasses().that().resideInAPackage("com.orderconsole.store..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.redis..", "io.lettuce..")
                .check(classes);
    }

    @Test
    void serviceDoesNotKnowItsCallers() {
        noClasses().that().resideInAPackage("com.orderconsole.service..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.app..", "com.orderconsole.ui..",
                        "com.orderconsole.cli..", "com.orderconsole.api..", "javafx..", "org.eclipse.jetty..")
                .check(classes);
    }

    @Test
    void theHttpApiIsAFrontEndBesideTheConsoleAndTheCli() {
        noClasses().that().resideInAPackage("com.orderconsole.api..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.redis..", "com.orderconsole.store..",
                        "com.orderconsole.embedded..", "com.orderconsole.ui..", "com.orderconsole.cli..", "io.lettuce..",
                        "org.apache.ibatis..", "java.sql..", "com.zaxxer..", "com.mysql..", "org.flywaydb..", "javafx..")
                .because("the HTTP API reaches Redis and MySQL only through the service layer the console and the CLI use "
                        + "(app.Services): no second path to either, and its words and error shape are app's (issues 32, 35)")
                .check(classes);
        noClasses().that().resideOutsideOfPackages("com.orderconsole.api..", "com.orderconsole.cli..")
                .should().dependOnClassesThat().resideInAPackage("com.orderconsole.api..")
                .because("the API is a front end: serve (cli) starts it, nothing below it knows it")
                .check(classes);
        noClasses().that().resideOutsideOfPackage("com.orderconsole.api..")
                .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jetty..")
                .because("the HTTP server library stays in the API's room")
                .check(classes);
    }

    @Test
    void consoleAndCliStandSideBySide() {
        noClasses().that().resideInAPackage("com.orderconsole.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.ui..", "javafx..")
                .because("the CLI runs headless on servers; what both front ends draw or word lives in app")
                .check(classes);
        noClasses().that().resideInAPackage("com.orderconsole.ui..")
                .should().dependOnClassesThat().resideInAPackage("com.orderconsole.cli..")
                .check(classes);
    }

    @Test
    void consoleAndCliUseOnlyTheServiceLayer() {
        noClasses().that().resideInAnyPackage("com.orderconsole.ui..", "com.orderconsole.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("com.orderconsole.redis..", "com.orderconsole.store..",
                        "com.orderconsole.embedded..", "io.lettuce..", "org.apache.ibatis..", "java.sql..", "com.zaxxer..",
                        "com.mysql..", "org.flywaydb..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void clientLibrariesStayInTheirLayers() {
        noClasses().that().resideOutsideOfPackage("com.orderconsole.redis..")
                .should().dependOnClassesThat().resideInAPackage("io.lettuce..")
                .because("Redis access is split by structure in redis/; services see its stores, never Lettuce")
                .check(classes);
        noClasses().that().resideOutsideOfPackage("com.orderconsole.store..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.ibatis..")
                .because("each table has one store class in store/; services never hold a MyBatis session")
                .check(classes);
        noClasses().that().resideOutsideOfPackages("com.orderconsole.store..", "com.orderconsole.embedded..")
                .should().dependOnClassesThat().resideInAPackage("java.sql..")
                .because("SQL runs in store/ (and, to create the schema of an embedded server, in embedded/)")
                .check(classes);
        noClasses().that().resideOutsideOfPackage("com.orderconsole.store..")
                .should().dependOnClassesThat(resideInAPackage("com.orderconsole.store").and(simpleNameEndingWith("Mapper")))
                .because("a mapper is the store's inside: one class writes each table")
                .check(classes);
    }

    @Test
    void onlyTheTransitionServiceRunsTheTransitionScript() {
        noClasses().that().doNotHaveFullyQualifiedName(TransitionService.class.getName())
                .and().resideOutsideOfPackage("com.orderconsole.redis..")
                .should().callMethod(com.orderconsole.redis.TransitionScript.class, "transitionAsync", TransitionRequest.class, String.class)
                .orShould().callMethod(com.orderconsole.redis.TransitionScript.class, "transitionFencedAsync", TransitionRequest.class,
                        String.class, String.class, String.class)
                .because("every status change goes through one service method: role checks, rebuild of missing state, "
                        + "republish of missing rules, rejection logging and waking the follower")
                .check(classes);
    }

    @Test
    void onlyTheTerminalRetentionLetsOrderStateLeaveRedis() {
        noClasses().that().doNotHaveFullyQualifiedName(com.orderconsole.service.follower.TerminalRetention.class.getName())
                .and().resideOutsideOfPackage("com.orderconsole.redis..")
                .should().callMethod(OrderStateStore.class, "retire", java.util.List.class)
                .because("an order's hash may only expire once MySQL holds it durably: the follower hands the terminal "
                        + "retention what it has just committed (issue 16)")
                .check(classes);
    }

    @Test
    void onlyTheFollowerAppliesTheOutboxToMySql() {
        noClasses().that().resideOutsideOfPackage("com.orderconsole.service.follower..")
                .and().resideOutsideOfPackage("com.orderconsole.redis..")
                .and().doNotHaveFullyQualifiedName(com.orderconsole.app.Services.class.getName())
                .should().dependOnClassesThat().haveFullyQualifiedName(OutboxStore.class.getName())
                .because("the outbox is read and trimmed by the MySQL follower alone; trimming elsewhere could lose an entry")
                .check(classes);
        // The methods that really write an order's status and its history rows from the outbox (issue 35 item 4).
        noClasses().that().resideOutsideOfPackage("com.orderconsole.service.follower..")
                .should().callMethod(OrderStore.class, "applyAllIfNewer", java.util.List.class)
                .orShould().callMethod(OrderStore.class, "applyAllInSequence", java.util.List.class, long[].class, int[].class, long[].class)
                .orShould().callMethod(OrderStore.class, "followHistory", com.orderconsole.domain.HistoryEntry.class)
                .because("only the follower moves an order's MySQL status, under the version guard and the sequence check; "
                        + "a second writer could apply an outbox entry twice, out of order, or one the record does not allow")
                .check(classes);
        noClasses().that().resideOutsideOfPackage("com.orderconsole.service.follower..")
                .should().callMethod(com.orderconsole.store.HistoryStore.class, "append", java.util.List.class)
                .because("history rows of transitions are written by the follower alone, in the transaction that moves the "
                        + "order and its cursor, so a replay inserts nothing and no row lacks its move")
                .check(classes);
        noClasses().that().resideOutsideOfPackage("com.orderconsole.service.order..")
                .should().callMethod(OrderStore.class, "create", java.util.List.class, java.util.List.class)
                .because("an order is created by one path (OrderCreator): its MySQL row with exactly its creation history "
                        + "row, then its Redis state; a repair's copy goes through the same path")
                .check(classes);
    }

    @Test
    void frontEndsDoNotDriveTheFollower() {
        noClasses().that().resideInAnyPackage("com.orderconsole.ui..", "com.orderconsole.cli..")
                .should().callMethod(Follower.class, "drainOnce")
                .because("'apply and wait for MySQL' is TransitionService.transitionAndWait / Follower.catchUp, one use case for both front ends")
                .check(classes);
    }

    @Test
    void reconciliationReachesTheFollowerThroughOneSeam() {
        noClasses().that().resideInAPackage("com.orderconsole.service.recon..")
                .and().haveNameNotMatching(".*\\.ReconFollower(\\$.*)?")
                .should().accessClassesThat().haveFullyQualifiedName(Follower.class.getName())
                .because("compares and repairs ask the follower for what they need through ReconFollower alone, so a repair "
                        + "does not find a second way to it (issue 28)")
                .check(classes);
    }

    @Test
    void theServiceRootHoldsOnlyHelpersBelowEveryCapability() {
        noClasses().that().resideInAPackage("com.orderconsole.service")
                .should().dependOnClassesThat().resideInAPackage("com.orderconsole.service.*..")
                .because("the root package's helpers (Access, AuditTrail, …) are used by every capability room; a root class that "
                        + "used a room would make a cycle the slice rule below does not see (it slices the rooms only)")
                .check(classes);
    }

    @Test
    void capabilitiesDoNotFormCycles() {
        slices().matching("com.orderconsole.service.(*)..").should().beFreeOfCycles()
                .because("each capability room can be read and changed knowing only the rooms below it")
                .check(classes);
    }

    @Test
    void statusHistoryIsAppendOnly() {
        methods().that().areAnnotatedWith(Update.class).or().areAnnotatedWith(Delete.class)
                .should(new ArchCondition<>("not touch order_history") {
                    @Override
                    public void check(JavaMethod m, ConditionEvents events) {
                        String[] sql = m.isAnnotatedWith(Update.class) ? m.getAnnotationOfType(Update.class).value()
                                : m.getAnnotationOfType(Delete.class).value();
                        boolean touches = Arrays.stream(sql).anyMatch(s -> s.toLowerCase(Locale.ROOT).contains("order_history"));
                        events.add(new SimpleConditionEvent(m, !touches, m.getFullName() + " updates or deletes order_history"));
                    }
                })
                .allowEmptyShould(true)
                .check(classes);
        noClasses().that().haveSimpleNameNotEndingWith("Mapper")
                .should().dependOnClassesThat().haveFullyQualifiedName("org.apache.ibatis.annotations.Delete")
                .check(classes);
    }
}

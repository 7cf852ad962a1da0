package com.orderconsole.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.apache.ibatis.annotations.Delete;
import org.apache.ibatis.annotations.Update;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Locale;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Dependencies point one way: domain ← redis/store ← service ← app ← ui, cli. */
class LayerRulesTest {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("com.orderconsole");
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
                        "com.orderconsole.cli..", "javafx..")
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

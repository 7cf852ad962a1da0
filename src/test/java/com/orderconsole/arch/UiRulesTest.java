package com.orderconsole.arch;

import com.orderconsole.service.follower.CatchUp;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The console's rooms: one package per page, the shell composes them, view models hold no scene graph. */
class UiRulesTest {
    private static final JavaClasses CLASSES = ProductClasses.get();

    @Test
    void pagesDoNotDependOnEachOther() {
        slices().matching("com.orderconsole.ui.(*)..")
                .should().notDependOnEachOther()
                .ignoreDependency(resideInAPackage("com.orderconsole.ui.main.."), alwaysTrue())
                .ignoreDependency(alwaysTrue(), resideInAPackage("com.orderconsole.ui.common.."))
                .because("a page can be read, changed and tested alone: only the shell (ui.main) composes pages "
                        + "(the graph page with the traffic panel, navigation), and what pages share lives in ui.common")
                .check(CLASSES);
    }

    @Test
    void theApplicationStartsTheShellAndPagesGetNoContext() {
        noClasses().that().resideInAPackage("com.orderconsole.ui")
                .should().dependOnClassesThat(resideInAPackage("com.orderconsole.ui..")
                        .and(not(resideInAnyPackage("com.orderconsole.ui", "com.orderconsole.ui.main..", "com.orderconsole.ui.common..",
                                "com.orderconsole.ui.signin..", "com.orderconsole.ui.profile.."))))
                .because("OrderConsoleApp lets the operator pick a profile (ui.profile), signs them in (ui.signin), then hands "
                        + "the window to the shell (ui.main), which builds the pages")
                .check(CLASSES);
        noClasses().that().resideInAPackage("com.orderconsole.ui..")
                .and().resideOutsideOfPackages("com.orderconsole.ui", "com.orderconsole.ui.main..")
                .should().dependOnClassesThat().resideInAPackage("com.orderconsole.ui")
                .because("a page model takes the few services it uses; only the shell sees the whole ConsoleContext")
                .check(CLASSES);
    }

    @Test
    void consoleAndCliLeaveTheFollowerToItself() {
        noClasses().that().resideInAnyPackage("com.orderconsole.ui..", "com.orderconsole.cli..")
                .should().callMethod(Follower.class, "drainOnce")
                .orShould().callMethod(Follower.class, "nudge")
                .orShould().callMethod(Follower.class, "start", Duration.class)
                .because("the follower drains on its own thread, started by the engine; a front end that wants MySQL "
                        + "up to date uses TransitionService.transitionAndWait or the follower's role-checked runOnce/catchUp")
                .check(CLASSES);
        noClasses().that().resideInAPackage("com.orderconsole.ui..")
                .should().dependOnClassesThat(resideInAPackage("com.orderconsole.service.follower..")
                        .and(not(equivalentTo(CatchUp.class))))
                .because("the console sees MySQL catch up only through transitionAndWait, whose CatchUp answer it shows")
                .check(CLASSES);
    }

    @Test
    void viewModelsHoldNoSceneGraph() {
        noClasses().that().haveSimpleNameEndingWith("ViewModel")
                .or().belongToAnyOf(Command.class, Feedback.class, DialogService.class, Background.class)
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "javafx.stage..", "javafx.fxml..",
                        "javafx.concurrent..", "javafx.application..", "javafx.animation..")
                .orShould().dependOnClassesThat().haveSimpleNameStartingWith("Fx")
                .because("view models keep state in javafx.beans and javafx.collections only, so they are tested without a "
                        + "stage; nodes, windows, dialogs and threads belong to the views, FxDialogService and FxBackground")
                .check(CLASSES);
    }

    @Test
    void viewsOnlyBindAndForward() {
        DescribedPredicate<JavaClass> workers = DescribedPredicate.describe("are services, dialogs or background runners",
                c -> c.getPackageName().startsWith("com.orderconsole.service") && !c.isRecord() && !c.isEnum()
                        || c.isAssignableTo(DialogService.class) || c.isAssignableTo(Background.class));
        noClasses().that().haveSimpleNameEndingWith("View")
                .should().dependOnClassesThat(workers)
                .because("a view binds to its view model and forwards clicks; calls, questions and their logic are the "
                        + "view model's, where they are tested")
                .check(CLASSES);
    }
}

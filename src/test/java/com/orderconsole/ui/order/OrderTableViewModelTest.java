package com.orderconsole.ui.order;

import com.orderconsole.RawSql;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.ViewModelTestBase;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OrderTableViewModelTest extends ViewModelTestBase {
    private final List<String> opened = new ArrayList<>();

    private OrderTableViewModel table(int pageSize) {
        return new OrderTableViewModel(pages(com.orderconsole.domain.Role.READ_ONLY).orders(), background, opened::add, pageSize);
    }

    private static List<String> ids(OrderTableViewModel vm) {
        return vm.rows().stream().map(OrderSummary::orderId).toList();
    }

    @Test
    void pagesForwardAndBackByKeyset() {
        for (String id : List.of("p-1", "p-2", "p-3", "p-4", "p-5")) {
            createOrder(id);
        }
        OrderTableViewModel vm = table(2);
        vm.search();
        assertThat(ids(vm)).containsExactly("p-1", "p-2");
        assertThat(vm.pager().hasPreviousProperty().get()).isFalse();
        assertThat(vm.pager().hasNextProperty().get()).isTrue();

        vm.nextPage();
        assertThat(ids(vm)).containsExactly("p-3", "p-4");
        assertThat(vm.pager().pageNumberProperty().get()).isEqualTo(2);
        vm.nextPage();
        assertThat(ids(vm)).containsExactly("p-5");
        assertThat(vm.pager().hasNextProperty().get()).isFalse();

        vm.previousPage();
        assertThat(ids(vm)).containsExactly("p-3", "p-4");
        vm.previousPage();
        assertThat(ids(vm)).containsExactly("p-1", "p-2");
        assertThat(vm.pager().pageNumberProperty().get()).isEqualTo(1);
        assertThat(vm.pager().hasPreviousProperty().get()).isFalse();
    }

    @Test
    void prefixFiltersAndAnExactIdOpensTheOrder() {
        createOrder("abc-1");
        createOrder("abc-2");
        createOrder("abd-1");
        OrderTableViewModel vm = table(100);

        vm.idTextProperty().set("abc");
        vm.search();
        assertThat(ids(vm)).containsExactly("abc-1", "abc-2");
        assertThat(opened).as("a well-formed id is looked up exactly too: its details say no order has it")
                .containsExactly("abc");

        vm.idTextProperty().set("abd-1");
        vm.search();
        assertThat(ids(vm)).containsExactly("abd-1");
        assertThat(opened).containsExactly("abc", "abd-1");
    }

    @Test
    void invalidInputIsReportedInWords() {
        OrderTableViewModel vm = table(100);
        vm.idTextProperty().set("a*b");
        vm.search();
        assertThat(vm.feedback().messageProperty().get()).contains("'a*b' is invalid");

        vm.idTextProperty().set("");
        vm.createdFromProperty().set(LocalDate.of(2024, 5, 2));
        vm.createdToProperty().set(LocalDate.of(2024, 5, 1));
        vm.search();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("The \"created from\" day is after the \"created to\" day.");
    }

    @Test
    void filtersByStatusCreationDayAndDisagreement() {
        createOrder("f-1");
        createOrder("f-2");
        createOrder("f-3");
        move("f-2", OrderStatus.PAID);
        move("f-3", OrderStatus.PAID);
        services.follower().drainOnce();
        RawSql.update("UPDATE orders SET status = 1, version = 1 WHERE order_id = 'f-3'");
        OrderTableViewModel vm = table(100);

        vm.statusProperty().set(OrderStatus.PAID);
        vm.search();
        assertThat(ids(vm)).containsExactly("f-2");

        vm.statusProperty().set(null);
        vm.disagreeingOnlyProperty().set(true);
        vm.search();
        assertThat(ids(vm)).containsExactly("f-3");
        assertThat(AgreementWords.of(vm.rows().get(0))).isEqualTo("Redis ahead");

        vm.disagreeingOnlyProperty().set(false);
        vm.createdToProperty().set(LocalDate.now().minusDays(1));
        vm.search();
        assertThat(vm.rows()).isEmpty();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("No orders match the filter.");
        vm.createdFromProperty().set(LocalDate.now());
        vm.createdToProperty().set(LocalDate.now());
        vm.search();
        assertThat(ids(vm)).containsExactly("f-1", "f-2", "f-3");
    }

    @Test
    void applyingAQueryFromElsewhereSetsTheFilterFields() {
        createOrder("x-1");
        OrderTableViewModel vm = table(100);
        vm.apply(OrderQuery.inStatus(OrderStatus.WAIT_PAY, true));
        assertThat(vm.statusProperty().get()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(vm.stuckOnlyProperty().get()).isTrue();
        assertThat(vm.sortByAgeProperty().get()).isTrue();
        assertThat(vm.rows()).as("a fresh order is not stuck").isEmpty();
        assertThat(vm.currentQuery().statuses()).containsExactly(OrderStatus.WAIT_PAY);

        vm.clearFilters();
        assertThat(ids(vm)).containsExactly("x-1");
    }

    /** Issue 12, minor: a last page that is exactly full offers no Next leading to an empty page. */
    @Test
    void nextIsNotOfferedWhenNothingFollowsAFullPage() {
        for (String id : List.of("f-1", "f-2", "f-3", "f-4")) {
            createOrder(id);
        }
        OrderTableViewModel vm = table(2);
        vm.search();
        assertThat(vm.pager().hasNextProperty().get()).isTrue();
        vm.nextPage();
        assertThat(ids(vm)).containsExactly("f-3", "f-4");
        assertThat(vm.pager().hasNextProperty().get()).isFalse();
        assertThat(vm.pager().nextCommand().executableProperty().get()).isFalse();

        vm.idTextProperty().set("f-1");
        vm.disagreeingOnlyProperty().set(true);
        vm.search();
        assertThat(vm.rows()).isEmpty();
        assertThat(vm.pager().hasNextProperty().get()).isFalse();
    }

    /** Issue 12, major 5 and minor: selection kept across reloads, a row updated in place, Ctrl+F resets the filters. */
    @Test
    void selectionSurvivesReloadsAndRowsFollowTheDetails() {
        createOrder("s-1");
        createOrder("s-2");
        OrderTableViewModel vm = table(100);
        vm.search();
        vm.selectedProperty().set(vm.rows().get(1));
        move("s-2", OrderStatus.PAID);
        vm.refresh();
        assertThat(vm.selectedProperty().get().orderId()).isEqualTo("s-2");
        assertThat(vm.selectedProperty().get().redisStatus()).as("the row as now read").isEqualTo(OrderStatus.PAID);

        move("s-1", OrderStatus.PAID);
        vm.updateRow(services.orders().lookup("s-1").summary());
        assertThat(vm.rows().get(0).redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(AgreementWords.of(vm.rows().get(0))).isIn("agree", "Redis ahead");

        vm.statusProperty().set(OrderStatus.WAIT_PAY);
        vm.stuckOnlyProperty().set(true);
        vm.disagreeingOnlyProperty().set(true);
        vm.resetFiltersForLookup();
        assertThat(vm.statusProperty().get()).isNull();
        assertThat(vm.stuckOnlyProperty().get()).isFalse();
        assertThat(vm.disagreeingOnlyProperty().get()).isFalse();
    }

    /**
     * Tester finding 11: Ctrl+F then an id that is refused left the status box at "Any status" while the table (and
     * its auto-refresh) kept the WAIT_PAY search. A refused lookup changes nothing: the boxes show again the filter
     * the table still applies, and the typed id stays for correcting.
     */
    @Test
    void aRefusedLookupLeavesTheBoxesShowingTheFilterTheTableApplies() {
        createOrder("h-1");
        createOrder("h-2");
        move("h-2", OrderStatus.PAID);
        services.follower().drainOnce();
        OrderTableViewModel vm = table(100);
        vm.statusProperty().set(OrderStatus.WAIT_PAY);
        vm.stuckOnlyProperty().set(false);
        vm.search();
        assertThat(ids(vm)).containsExactly("h-1");

        vm.resetFiltersForLookup();
        vm.idTextProperty().set("\u00e4-1 weird");
        vm.search();
        assertThat(vm.feedback().messageProperty().get()).contains("is invalid");
        assertThat(vm.idTextProperty().get()).as("the refused text stays to be corrected").isEqualTo("\u00e4-1 weird");
        assertThat(vm.statusProperty().get()).as("the status box shows the filter the table applies")
                .isEqualTo(OrderStatus.WAIT_PAY);
        vm.refresh();
        assertThat(ids(vm)).containsExactly("h-1");

        // A lookup that runs starts from no filter but the id, as before.
        vm.resetFiltersForLookup();
        vm.idTextProperty().set("h-2");
        vm.search();
        assertThat(vm.statusProperty().get()).isNull();
        assertThat(ids(vm)).containsExactly("h-2");
    }
}

package com.orderconsole.ui.recon;

import com.orderconsole.RawRedis;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.ui.BothModes;
import com.orderconsole.ui.main.StatusBarViewModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12: the dead letters on the reconciliation page, retried after a confirmation or discarded with a reason; in-process
 * and through serve alike.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(BothModes.Mode.class)
class DeadLettersViewModelTest extends BothModes {

    private DeadLettersViewModel letters(Role role) {
        Operator olga = new Operator("olga", role);
        return new DeadLettersViewModel(deadLetters(olga), olga, background, dialogs);
    }

    /** Two letters: outbox entries the follower cannot read (status code 7), for orders dl-1 and dl-2. */
    private void plantLetters() {
        createOrder("dl-1");
        createOrder("dl-2");
        try (RawRedis raw = new RawRedis()) {
            for (String id : new String[] {"dl-1", "dl-2"}) {
                raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket(id)), Map.of("o", id, "f", "7", "t", "2", "v", "3", "c", "1",
                        "a", "x", "s", "t", "r", "", "ts", "1"));
            }
        }
        services.follower().drainOnce();
    }

    @Test
    void listsOpenLettersAndTheStatusBarCountsThem() {
        plantLetters();
        DeadLettersViewModel vm = letters(Role.OPS);
        vm.refresh();
        assertThat(vm.letters()).extracting(DeadLetter::orderId).containsExactlyInAnyOrder("dl-1", "dl-2");
        assertThat(vm.letters()).allSatisfy(d -> assertThat(d.body()).contains("f=7"));

        com.orderconsole.app.ConsoleServices console = consoleServices(new Operator("olga", Role.OPS));
        StatusBarViewModel bar = new StatusBarViewModel(console.health(), console.deadLetters(), background);
        bar.check();
        assertThat(bar.openDeadLettersProperty().get()).isEqualTo(2);
    }

    @Test
    void retryIsConfirmedAndDiscardNeedsAReason() {
        plantLetters();
        DeadLettersViewModel vm = letters(Role.OPS);
        vm.refresh();
        DeadLetter first = vm.letters().get(0);
        vm.selectedProperty().set(first);
        dialogs.no();
        vm.retrySelected();
        assertThat(vm.letters()).hasSize(2);

        dialogs.yes();
        vm.retrySelected();
        assertThat(vm.feedback().messageProperty().get()).startsWith("Dead letter " + first.id() + " retried");
        assertThat(vm.letters()).hasSize(1);
        assertThat(vm.selectedProperty().get()).as("the closed letter is no longer selected").isNull();
        assertThat(services.orders().lookup(first.orderId()).summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);

        vm.selectedProperty().set(vm.letters().get(0));
        dialogs.reason("written by an old script; nothing to restore");
        vm.discardSelected();
        assertThat(vm.letters()).isEmpty();
        assertThat(dialogs.asked()).extracting(q -> q.kind()).containsExactly("confirm", "confirm", "reason");
    }

    /** Issue 26: on production a retry and a discard also ask for their count (one letter) to be typed. */
    @Test
    void onProductionRetryAndDiscardAskForTheCountTyped() {
        plantLetters();
        dialogs.on(com.orderconsole.domain.Environment.external("prod-eu"));
        DeadLettersViewModel vm = letters(Role.OPS);
        vm.refresh();
        DeadLetter first = vm.letters().get(0);
        vm.selectedProperty().set(first);

        dialogs.yes().typed("2");
        vm.retrySelected();
        assertThat(vm.letters()).as("a wrong count retries nothing").hasSize(2);
        assertThat(dialogs.asked().get(1).kind()).isEqualTo("typed");
        assertThat(dialogs.asked().get(1).details()).as("the count to type").isEqualTo("1");

        dialogs.yes().typed("1");
        vm.retrySelected();
        assertThat(vm.letters()).hasSize(1);

        vm.selectedProperty().set(vm.letters().get(0));
        dialogs.reason("written by an old script").typed("");
        vm.discardSelected();
        assertThat(vm.letters()).as("not typed: nothing discarded").hasSize(1);
        dialogs.reason("written by an old script").typed("1");
        vm.discardSelected();
        assertThat(vm.letters()).isEmpty();
    }

    @Test
    void supportMayLookButNotAct() {
        assertThat(letters(Role.SUPPORT).canAct()).isFalse();
        assertThat(letters(Role.OPS).canAct()).isTrue();
    }
}

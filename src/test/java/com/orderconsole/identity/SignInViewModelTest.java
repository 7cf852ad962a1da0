package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.DirectBackground;
import com.orderconsole.ui.signin.SignInViewModel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The sign-in dialog's model against the access-controlled database. */
@Slow
class SignInViewModelTest {
    private final List<EngineConfig> configs = new ArrayList<>();
    private final List<Operator> operators = new ArrayList<>();
    private int asked;

    private SignInViewModel vm(EngineConfig config) {
        return new SignInViewModel(config, new DirectBackground());
    }

    private void begin(SignInViewModel vm) {
        vm.begin(this::signedIn, () -> asked++);
    }

    private void signedIn(EngineConfig config, Operator operator) {
        configs.add(config);
        operators.add(operator);
    }

    @Test
    void onLocalServersNobodySignsIn() {
        begin(vm(TestServers.config()));
        assertThat(asked).isZero();
        assertThat(operators).containsExactly(new Operator(System.getProperty("user.name"), Role.ADMIN, true));
    }

    @Test
    void aPasswordFromTheCommandLineIsCheckedAndARefusedOneOpensTheDialog() {
        begin(vm(AccessControlledDb.config("sam")));
        assertThat(asked).isZero();
        assertThat(operators).containsExactly(new Operator("sam", Role.SUPPORT));

        SignInViewModel wrong = vm(AccessControlledDb.config("sam", "wrong"));
        begin(wrong);
        assertThat(asked).isEqualTo(1);
        assertThat(wrong.errorProperty().get()).isEqualTo("Could not sign in: the database at 127.0.0.1:"
                + AccessControlledDb.server().port() + "/orders refused account 'sam': wrong password, or no such account");
        assertThat(wrong.accountProperty().get()).isEqualTo("sam");
        assertThat(operators).hasSize(1);
    }

    @Test
    void theDialogChecksWhatIsTypedUntilTheDatabaseAcceptsIt() {
        SignInViewModel vm = vm(AccessControlledDb.config("sam", ""));
        begin(vm);
        assertThat(asked).isEqualTo(1);
        assertThat(vm.database()).isEqualTo("127.0.0.1:" + AccessControlledDb.server().port() + "/orders");

        vm.signIn(this::signedIn);
        assertThat(vm.errorProperty().get()).isEqualTo("Enter the password of database account 'sam'.");
        vm.accountProperty().set("  ");
        vm.passwordProperty().set("pw-sam");
        vm.signIn(this::signedIn);
        assertThat(vm.errorProperty().get()).isEqualTo("Enter the name of your database account.");

        vm.accountProperty().set("sam");
        vm.passwordProperty().set("wrong");
        vm.signIn(this::signedIn);
        assertThat(vm.errorProperty().get()).endsWith("refused account 'sam': wrong password, or no such account");
        assertThat(vm.passwordProperty().get()).as("a refused password is cleared").isEmpty();
        assertThat(operators).isEmpty();

        vm.passwordProperty().set("pw-sam");
        vm.signIn(this::signedIn);
        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.passwordProperty().get()).isEmpty();
        assertThat(operators).containsExactly(new Operator("sam", Role.SUPPORT));
        assertThat(configs.get(0).dbUser()).isEqualTo("sam");
        assertThat(configs.get(0).dbPassword()).isEqualTo("pw-sam");
    }

    @Test
    void aLowerRoleMayBeChosenAHigherOneIsRefused() {
        SignInViewModel vm = vm(AccessControlledDb.config("olga", ""));
        vm.roleProperty().set(Role.ADMIN);
        vm.passwordProperty().set("pw-olga");
        vm.signIn(this::signedIn);
        assertThat(vm.errorProperty().get()).isEqualTo("Could not sign in: role admin is more than database account 'olga' "
                + "holds (ops); a role can only be lowered");

        vm.roleProperty().set(Role.SUPPORT);
        vm.passwordProperty().set("pw-olga");
        vm.signIn(this::signedIn);
        assertThat(operators).containsExactly(new Operator("olga", Role.SUPPORT));
        assertThat(configs.get(0).role()).isEqualTo(Role.SUPPORT);
    }
}

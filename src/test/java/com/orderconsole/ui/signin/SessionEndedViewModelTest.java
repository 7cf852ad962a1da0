package com.orderconsole.ui.signin;

import com.orderconsole.OidcStub;
import com.orderconsole.app.remote.BrowserFollower;
import com.orderconsole.app.remote.OidcSession;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.ViewModelTestBase;
import com.orderconsole.ui.order.OrderTableViewModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person's session ends while they work on a page (the identity provider no longer renews it): the console asks once
 * to sign in again, the page keeps what they typed, and after the sign-in their action is carried out; declining says why
 * in words. The page is the real orders table on the real services; the session is a real one with the test's provider.
 */
class SessionEndedViewModelTest extends ViewModelTestBase {
    private OidcStub idp;
    private OidcSession session;
    private final List<String> asked = new ArrayList<>();
    private final List<String> typedWhileAsked = new ArrayList<>();
    private OrderTableViewModel vm;

    @BeforeEach
    void signedIn() {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        idp = OidcStub.start();
        session = OidcSession.connect(URI.create(idp.issuer()), OidcStub.PUBLIC_CLIENT);
        session.signInWithBrowser(new BrowserFollower(), u -> { });
        for (String id : List.of("abc-1", "abc-2", "abd-1")) {
            createOrder(id);
        }
    }

    @AfterEach
    void closeProvider() {
        idp.close();
    }

    private OrderTableViewModel page(boolean signInAgain) {
        SignInGuard guard = new SignInGuard(background, session, (why, outcome) -> {
            asked.add(why);
            typedWhileAsked.add(vm.idTextProperty().get());
            if (signInAgain) {
                session.signInWithBrowser(new BrowserFollower(), u -> { });
            }
            outcome.accept(signInAgain);
        });
        vm = new OrderTableViewModel(services.orders(), guard, id -> { }, 100);
        return vm;
    }

    /** The provider ends the session and serve has just refused the token: the next call needs a new sign-in. */
    private void sessionEnds() {
        idp.endSessions();
        session.rejected(session.current());
    }

    private static List<String> ids(OrderTableViewModel vm) {
        return vm.rows().stream().map(OrderSummary::orderId).toList();
    }

    @Test
    void theConsoleAsksToSignInAgainKeepsWhatWasTypedAndCarriesOutTheSearch() {
        OrderTableViewModel page = page(true);
        sessionEnds();
        page.idTextProperty().set("abc");
        page.search();

        assertThat(asked).containsExactly("your session at " + idp.issuer() + " ended (it refused to renew the sign-in: Session not"
                + " active (invalid_grant)): sign in again");
        assertThat(typedWhileAsked).containsExactly("abc");
        assertThat(ids(page)).as("the search typed before the session ended, carried out after the sign-in")
                .containsExactly("abc-1", "abc-2");
        assertThat(page.idTextProperty().get()).isEqualTo("abc");
        assertThat(page.feedback().errorProperty().get()).isFalse();
        assertThat(session.signedIn()).isTrue();
    }

    @Test
    void declinedTheSearchFailsInWordsAndTheTypedTextStays() {
        OrderTableViewModel page = page(false);
        page.idTextProperty().set("abd");
        page.search();
        assertThat(ids(page)).containsExactly("abd-1");
        assertThat(asked).as("no question while the session lives").isEmpty();

        sessionEnds();
        page.idTextProperty().set("abc");
        page.search();
        assertThat(asked).hasSize(1);
        assertThat(page.feedback().errorProperty().get()).isTrue();
        assertThat(page.feedback().messageProperty().get()).contains("your session at " + idp.issuer() + " ended")
                .contains("sign in again");
        assertThat(page.idTextProperty().get()).isEqualTo("abc");
        assertThat(ids(page)).as("the rows shown before stay").containsExactly("abd-1");
    }
}

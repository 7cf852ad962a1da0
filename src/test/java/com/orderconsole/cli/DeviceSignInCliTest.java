package com.orderconsole.cli;

import com.orderconsole.OidcStub;
import com.orderconsole.Slow;
import com.orderconsole.api.ApiHarness;
import com.orderconsole.app.Messages;
import com.orderconsole.service.identity.OidcVerifier;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person at a terminal: {@code --server URL --issuer URL --client-id ID} signs in with a device code (the address and
 * the code on stderr, stdout the command's result), and serve stamps the person's name in the history.
 */
@Slow
class DeviceSignInCliTest {
    @Test
    void aPersonSignsInWithADeviceCodeAndActsInTheirOwnName() throws Exception {
        Messages.use(Locale.ENGLISH);
        try (OidcStub idp = OidcStub.start();
             ApiHarness serve = ApiHarness.freshWithOidc(new OidcVerifier(idp.settings("console-ops=ops")))) {
            idp.approve("alice", "console-ops").deviceAnswers(1);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = OrderCli.runWithEnvironment(new String[]{"--server", serve.base(), "--issuer", idp.issuer(), "--client-id",
                            OidcStub.PUBLIC_CLIENT, "create", "--id", "dev-1", "--json"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), Map.<String, String>of()::get);
            String stderr = err.toString(StandardCharsets.UTF_8);
            assertThat(code).as(stderr).isZero();
            assertThat(stderr).contains("To sign in, open").contains("enter the code");
            assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8))
                    .get("orderId").asText()).isEqualTo("dev-1");
            long stamped = 0;
            for (int i = 0; i < 100 && stamped == 0; i++) { // serve's follower writes the history to MySQL
                stamped = com.orderconsole.RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'dev-1' "
                        + "AND actor LIKE 'sso:alice%'");
                Thread.sleep(100);
            }
            assertThat(stamped).as("serve stamps the signed-in person").isEqualTo(1);
        }
    }
}

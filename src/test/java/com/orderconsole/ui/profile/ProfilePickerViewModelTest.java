package com.orderconsole.ui.profile;

import com.orderconsole.app.Profile;
import com.orderconsole.app.Profiles;
import com.orderconsole.domain.Environment;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The profile picker's choice before the user makes one. */
class ProfilePickerViewModelTest {
    private static Profile profile(String name, Environment.Kind kind) {
        return new Profile(Path.of(name + ".properties"), new Environment(name, kind, kind == Environment.Kind.PRODUCTION ? "#c62828" : "#1565c0"),
                "redis://127.0.0.1:6379", "jdbc:mysql://127.0.0.1:3306/orders", "alice", null, null, null, null);
    }

    /** Issue 34: the picker preselected a production profile, so Enter opened its sign-in. */
    @Test
    void aProductionProfileIsNeverPreselected() {
        ProfilePickerViewModel onlyProd = new ProfilePickerViewModel(new Profiles.Listing(
                List.of(profile("prod-eu", Environment.Kind.PRODUCTION), profile("prod-us", Environment.Kind.PRODUCTION)), List.of()));
        assertThat(onlyProd.selectedProperty().get().environment().production()).isFalse();
        assertThat(onlyProd.selectedProperty().get().profile()).as("the local servers").isNull();

        ProfilePickerViewModel mixed = new ProfilePickerViewModel(new Profiles.Listing(
                List.of(profile("prod-eu", Environment.Kind.PRODUCTION), profile("staging", Environment.Kind.STAGING)), List.of()));
        assertThat(mixed.selectedProperty().get().environment().name()).isEqualTo("staging");
    }

    @Test
    void aRemoteProfileSaysWhichServeAndWhichSignIn() {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        Profile remote = Profile.remote(Path.of("prod-remote.properties"), new Environment("prod-remote", Environment.Kind.PRODUCTION,
                "#c62828"), java.net.URI.create("https://orders.example.com"), java.net.URI.create("https://login.example.com/realms/shop"),
                "order-console", null);
        ProfilePickerViewModel vm = new ProfilePickerViewModel(new Profiles.Listing(List.of(remote), List.of()));
        assertThat(vm.choices().get(1).where()).isEqualTo("serve at orders.example.com, signing in with login.example.com");
        assertThat(vm.selectedProperty().get().profile()).as("production is never preselected, remote or not").isNull();
    }
}

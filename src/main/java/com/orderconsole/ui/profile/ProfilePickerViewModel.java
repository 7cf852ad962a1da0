package com.orderconsole.ui.profile;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Profile;
import com.orderconsole.app.ProfileException;
import com.orderconsole.app.Profiles;
import com.orderconsole.domain.Environment;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;

/**
 * The profile picker's model: the local embedded servers and every usable profile to choose from, and
 * the profiles that were refused, each with its file, line and field in words.
 */
public final class ProfilePickerViewModel {
    /**
     * One environment to choose.
     *
     * @param profile the profile, or null for the local embedded servers
     * @param environment its name, kind and colour
     * @param title e.g. "prod-eu · production"
     * @param where e.g. "mysql.internal:3306/orders as alice", or the embedded servers
     */
    public record Choice(Profile profile, Environment environment, String title, String where) {
    }

    private final ObservableList<Choice> choices = FXCollections.observableArrayList();
    private final ObjectProperty<Choice> selected = new SimpleObjectProperty<>();
    private final List<String> faults;

    /** @param listing the profiles found (good and refused) */
    public ProfilePickerViewModel(Profiles.Listing listing) {
        choices.add(new Choice(null, Environment.LOCAL, title(Environment.LOCAL), Messages.get("profile.picker.local")));
        for (Profile p : listing.profiles()) {
            String where = p.remote() ? Messages.format("profile.picker.remote", p.server().getAuthority(),
                    p.issuer() != null ? p.issuer().getAuthority() : Messages.get("profile.picker.tokenCommand"))
                    : p.external() ? Messages.format("profile.picker.where", database(p.jdbcUrl()),
                    p.dbUser() == null ? System.getProperty("user.name", "") : p.dbUser()) : Messages.get("profile.picker.local");
            choices.add(new Choice(p, p.environment(), title(p.environment()), where));
        }
        faults = listing.faults().stream().map(ProfileException::getMessage).toList();
        // The first profile that is not production is the likely choice; else the local servers. A production profile
        // is never preselected: Enter opened its sign-in (issue 34); it takes a deliberate choice.
        selected.set(choices.stream().skip(1).filter(c -> !c.environment().production()).findFirst().orElse(choices.get(0)));
    }

    private static String title(Environment e) {
        return Messages.format("env.band", e.name(), Messages.get("env.kind." + e.kind().key()));
    }

    /** @return "host:port/schema" of a JDBC URL, never an account or parameters */
    static String database(String jdbcUrl) {
        String s = jdbcUrl.replaceFirst("^jdbc:[a-z]+://", "").replaceFirst("\\?.*$", "");
        return s.substring(s.lastIndexOf('@') + 1);
    }

    /** @return what may be chosen: the local servers first, then the profiles by name */
    public ObservableList<Choice> choices() {
        return choices;
    }

    /** @return the choice highlighted */
    public ObjectProperty<Choice> selectedProperty() {
        return selected;
    }

    /** @return the refused profiles, each in words naming file, line and field */
    public List<String> faults() {
        return faults;
    }
}

package com.orderconsole.ui.common;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import com.orderconsole.app.Settings.Theme;
import javafx.application.Application;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Window;

import java.util.Objects;

/**
 * The console's two looks: AtlantaFX Primer Light and Primer Dark, each with styles/app.css on top. The
 * theme is process-wide (JavaFX has one user-agent stylesheet); app.css reads the {@link #DARK} class on
 * each scene's root for its own colours (status colours, see StatusColoursContrastTest).
 */
public final class Themes {
    /** Root style class of a scene in the dark theme: app.css switches its status colours on it. */
    public static final String DARK = "dark";

    private static Theme current = Theme.LIGHT;

    private Themes() {
    }

    /** @return the theme in use */
    public static Theme current() {
        return current;
    }

    /**
     * @param theme light or dark
     * @return the AtlantaFX stylesheet of the theme, as a URL string
     */
    public static String userAgentStylesheet(Theme theme) {
        String path = theme == Theme.DARK ? new PrimerDark().getUserAgentStylesheet() : new PrimerLight().getUserAgentStylesheet();
        // AtlantaFX names a classpath path; a full URL also resolves when atlantafx-base is on the module path.
        return Objects.requireNonNull(Themes.class.getResource(path), path).toExternalForm();
    }

    /**
     * Switches every open window (and those opened later through {@link #styledScene}) to a theme. FX thread.
     *
     * @param theme light or dark
     */
    public static void apply(Theme theme) {
        current = Objects.requireNonNull(theme, "theme");
        Application.setUserAgentStylesheet(userAgentStylesheet(theme));
        for (Window w : Window.getWindows()) {
            if (w.getScene() != null && w.getScene().getRoot() != null) {
                mark(w.getScene().getRoot());
            }
        }
    }

    /**
     * A scene with the console's look in the current theme: the AtlantaFX theme plus styles/app.css.
     *
     * @param root the scene's root
     * @param width the scene's width, pixels
     * @param height the scene's height, pixels
     * @return the scene
     */
    public static Scene styledScene(Parent root, double width, double height) {
        Application.setUserAgentStylesheet(userAgentStylesheet(current));
        Scene scene = new Scene(root, width, height);
        style(scene);
        return scene;
    }

    /**
     * Gives a scene made elsewhere (a dialog's) styles/app.css and the theme's root class.
     *
     * @param scene the scene
     */
    public static void style(Scene scene) {
        String css = Objects.requireNonNull(Themes.class.getResource("/styles/app.css")).toExternalForm();
        if (!scene.getStylesheets().contains(css)) {
            scene.getStylesheets().add(css);
        }
        if (scene.getRoot() != null) {
            mark(scene.getRoot());
        }
        scene.rootProperty().addListener((o, a, root) -> mark(root));
    }

    private static void mark(Parent root) {
        Styles.toggle(root, DARK, current == Theme.DARK);
    }
}

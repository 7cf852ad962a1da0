package com.orderconsole.ui.common;

import com.orderconsole.app.Messages;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;

/** Loads a view's FXML from the classpath (/fxml/...) with the view object as its controller and the text bundle for %key. */
public final class Fxml {
    private Fxml() {
    }

    /**
     * @param resource classpath path, e.g. "/fxml/order/OrderTableView.fxml"
     * @param controller the view; receives the @FXML fields and handlers
     * @return the root node
     * @throws IllegalStateException when the file is missing; UncheckedIOException when it does not parse
     */
    public static <T extends Parent> T load(String resource, Object controller) {
        URL url = Fxml.class.getResource(resource);
        if (url == null) {
            throw new IllegalStateException("view file " + resource + " is not on the classpath"); // i18n-ok: a build defect, for developers
        }
        FXMLLoader loader = new FXMLLoader(url);
        loader.setController(controller);
        loader.setResources(Messages.bundle());
        try {
            return loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + resource + ": " + e.getMessage(), e); // i18n-ok: a build defect, for developers
        }
    }
}

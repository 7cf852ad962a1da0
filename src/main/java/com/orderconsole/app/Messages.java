package com.orderconsole.app;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.Objects;
import java.util.ResourceBundle;

/**
 * The user-visible text of the console and the CLI, from the bundles {@code i18n/messages.properties}
 * (English) and {@code i18n/messages_zh_CN.properties} (simplified Chinese), both UTF-8.
 *
 * <p>One locale per process: chosen at start from the OS locale, {@code --lang} or the console's
 * settings, through {@link #use(Locale)}. Keys are grouped by page or command ({@code order.*},
 * {@code bulk.*}, {@code cli.*}); FXML files reach the same bundle as {@code %key}.
 */
public final class Messages {
    /** Base name of the bundles on the classpath. */
    public static final String BUNDLE = "i18n.messages";

    private static volatile ResourceBundle bundle = load(Locale.getDefault());

    private Messages() {
    }

    /**
     * Switches the whole process to a language; a locale with no bundle of its own falls back to English.
     *
     * @param locale e.g. {@code Locale.SIMPLIFIED_CHINESE}, {@code Locale.ENGLISH}
     */
    public static void use(Locale locale) {
        bundle = load(Objects.requireNonNull(locale, "locale"));
    }

    /** @return the locale whose text is in use (ROOT-like English when no other bundle matched) */
    public static Locale locale() {
        Locale l = bundle.getLocale();
        return l == null || l.getLanguage().isEmpty() ? Locale.ENGLISH : l;
    }

    /** @return the bundle in use, for FXMLLoader#setResources */
    public static ResourceBundle bundle() {
        return bundle;
    }

    /**
     * @param key a key of the bundle, e.g. "order.lookup"
     * @return its text in the current language
     * @throws MissingResourceException when no bundle has the key (a test checks every key is in both)
     */
    public static String get(String key) {
        return bundle.getString(key);
    }

    /**
     * @param key a key whose text has {@link MessageFormat} placeholders ({0}, {1,number,integer} ...)
     * @param args the values, formatted for the current locale
     * @return the text with the values filled in
     */
    public static String format(String key, Object... args) {
        return new MessageFormat(get(key), locale()).format(args);
    }

    private static ResourceBundle load(Locale locale) {
        // Without NO_FALLBACK an English user on a zh-CN machine would get Chinese through the default locale.
        return ResourceBundle.getBundle(BUNDLE, locale, ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }
}

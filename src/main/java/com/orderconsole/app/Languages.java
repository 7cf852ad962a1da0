package com.orderconsole.app;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The languages the console and the CLI speak, and how one is chosen: {@code --lang} first, then the
 * console's settings, then the OS locale (any Chinese locale gets simplified Chinese, everything else
 * English, the fallback).
 */
public final class Languages {
    /** Simplified Chinese as the bundles name it ({@code messages_zh_CN.properties}). */
    public static final Locale ZH_CN = Locale.SIMPLIFIED_CHINESE;
    /** Every language with a complete bundle, English first (the fallback). */
    public static final List<Locale> SUPPORTED = List.of(Locale.ENGLISH, ZH_CN);

    private Languages() {
    }

    /**
     * @param tag a language as typed on the command line or kept in the settings: "en", "zh-CN"
     *     (also "zh_CN", "zh", any case)
     * @return its locale
     * @throws IllegalArgumentException naming the tag and the choices when it is not a supported language
     */
    public static Locale parse(String tag) {
        String t = tag == null ? "" : tag.strip().replace('_', '-').toLowerCase(Locale.ROOT);
        return switch (t) {
            case "en", "en-us", "en-gb" -> Locale.ENGLISH;
            case "zh", "zh-cn", "zh-hans", "zh-hans-cn" -> ZH_CN;
            default -> throw new IllegalArgumentException(Messages.format("settings.language.unknown", tag));
        };
    }

    /** @return the tag of a supported locale, as {@link #parse} reads it back: "en" or "zh-CN" */
    public static String tag(Locale locale) {
        return supported(locale).equals(ZH_CN) ? "zh-CN" : "en";
    }

    /**
     * @param locale any locale, e.g. the OS's
     * @return the supported language closest to it: simplified Chinese for any Chinese locale, else English
     */
    public static Locale supported(Locale locale) {
        return locale != null && "zh".equals(locale.getLanguage()) ? ZH_CN : Locale.ENGLISH;
    }

    /**
     * Chooses the language of this process.
     *
     * @param flag the {@code --lang} value, or null
     * @param settings the language kept in the settings, empty when none
     * @param os the OS locale ({@code Locale.getDefault()})
     * @return the first that is given: flag, settings, OS locale (mapped by {@link #supported})
     * @throws IllegalArgumentException when the flag names no supported language
     */
    public static Locale choose(String flag, Optional<Locale> settings, Locale os) {
        if (flag != null) {
            return parse(flag);
        }
        return settings.orElseGet(() -> supported(os));
    }

    /**
     * Finds {@code --lang VALUE} or {@code --lang=VALUE} in a command line before it is parsed: help texts
     * are read from the bundle when the parser is built, so the language must be known first.
     *
     * @param args the command line
     * @return the value, or null when the option is absent (or has no value: the parser then reports it)
     */
    public static String flag(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if ("--".equals(args[i])) {
                return null;
            }
            if ("--lang".equals(args[i]) && i + 1 < args.length) {
                return args[i + 1];
            }
            if (args[i].startsWith("--lang=")) {
                return args[i].substring("--lang=".length());
            }
        }
        return null;
    }
}

package com.orderconsole.ui.common;

import com.orderconsole.app.Settings.Theme;
import com.orderconsole.domain.OrderStatus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Status colours are legible in both themes, by WCAG 2.x contrast ratio (relative luminance, (L1 + 0.05) /
 * (L2 + 0.05)), read from the stylesheets users get: styles/app.css and AtlantaFX's Primer Light and Dark.
 *
 * <p>Where each colour is used decides the threshold. A graph node's border is graphical: 3:1 against the node's
 * backgrounds (-color-bg-default, and -color-bg-subtle for terminal nodes). The order detail's status badge is
 * text on the status colour: the badge text (bold, about 12 px, not "large") needs 4.5:1 against it. Both are
 * checked for every status in both themes.
 */
class StatusColoursContrastTest {
    private static final double TEXT = 4.5;
    private static final double GRAPHICAL = 3.0;

    @Test
    void everyStatusColourIsLegibleInBothThemes() throws IOException {
        String app = read(StatusColoursContrastTest.class.getResource("/styles/app.css"));
        List<String> failures = new ArrayList<>();
        for (Theme theme : Theme.values()) {
            Map<String, String> atlanta = variables(read(new URL(Themes.userAgentStylesheet(theme))), ".root");
            Map<String, String> ours = variables(app, ".root");
            if (theme == Theme.DARK) {
                ours.putAll(variables(app, ".root." + Themes.DARK));
            }
            String badgeText = ours.get("-status-badge-text");
            for (OrderStatus s : OrderStatus.values()) {
                String var = "-status-" + s.name().toLowerCase(Locale.ROOT).replace('_', '-');
                String colour = ours.get(var);
                assertThat(colour).as(var + " in " + theme).isNotNull();
                for (String bg : List.of("-color-bg-default", "-color-bg-subtle")) {
                    double r = contrast(colour, atlanta.get(bg));
                    if (r < GRAPHICAL) {
                        failures.add(String.format(Locale.ROOT, "%s %s %s on %s %s: %.2f:1 < 3:1 (graph border)", theme, var, colour, bg, atlanta.get(bg), r));
                    }
                }
                double badge = contrast(badgeText, colour);
                if (badge < TEXT) {
                    failures.add(String.format(Locale.ROOT, "%s badge text %s on %s %s: %.2f:1 < 4.5:1", theme, badgeText, var, colour, badge));
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    /** The formula against published reference values, so the test cannot pass by a wrong formula. */
    @Test
    void contrastFormulaMatchesWcagReferences() {
        assertThat(contrast("#000000", "#ffffff")).isCloseTo(21.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(contrast("#777777", "#ffffff")).isCloseTo(4.48, org.assertj.core.data.Offset.offset(0.01));
        assertThat(contrast("#ffffff", "#ffffff")).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.001));
    }

    static double contrast(String a, String b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    private static double luminance(String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        return 0.2126 * channel(rgb >> 16 & 0xff) + 0.7152 * channel(rgb >> 8 & 0xff) + 0.0722 * channel(rgb & 0xff);
    }

    private static double channel(int c8) {
        double c = c8 / 255.0;
        return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }

    /** @return the "-name: #rrggbb" declarations of the first block whose selector is exactly {@code selector} */
    private static Map<String, String> variables(String css, String selector) {
        Matcher block = Pattern.compile("(?m)^" + Pattern.quote(selector) + "\\s*\\{([^}]*)}").matcher(css);
        assertThat(block.find()).as("block " + selector).isTrue();
        Map<String, String> vars = new LinkedHashMap<>();
        Matcher decl = Pattern.compile("(-[\\w-]+)\\s*:\\s*(#[0-9a-fA-F]{6})\\s*;").matcher(block.group(1));
        while (decl.find()) {
            vars.put(decl.group(1), decl.group(2).toLowerCase(Locale.ROOT));
        }
        return vars;
    }

    private static String read(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

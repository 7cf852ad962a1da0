package com.orderconsole.i18n;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every key the code and the FXML ask for is in both bundles, and the two texts of a key take the same
 * values: a key missing in one language would throw (or show "%key") only when that page is opened.
 */
class I18nKeysTest {
    private static final Pattern JAVA_KEY = Pattern.compile("(?:Messages\\.(?:get|format)|descriptionKey\\s*=)\\s*\\(?\\s*\"([^\"]+)\"");
    private static final Pattern FXML_KEY = Pattern.compile("=\"%([^\"]+)\"");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)");

    @Test
    void everyKeyUsedIsInBothBundles() throws IOException {
        Properties en = load("/i18n/messages.properties");
        Properties zh = load("/i18n/messages_zh_CN.properties");
        Set<String> used = new TreeSet<>();
        collect(Path.of("src/main/java"), ".java", JAVA_KEY, used);
        collect(Path.of("fxml"), ".fxml", FXML_KEY, used);
        // Health warnings name their text by key in the service (which has no bundle): health.<key>.
        Set<String> notices = new TreeSet<>();
        collect(Path.of("src/main/java"), ".java", Pattern.compile("new Health\\.Notice\\(\\s*\"([^\"]+)\""), notices);
        assertThat(notices).as("health notices").contains("sweeperNever", "redisDown");
        notices.forEach(n -> used.add("health." + n));
        // Keys built from a name at run time: every value of the enum must have its text.
        for (OrderStatus s : OrderStatus.values()) {
            used.add("status." + s.name());
        }
        for (ResultCode c : ResultCode.values()) {
            used.add("result." + c.name());
        }
        for (com.orderconsole.service.recon.ReconCategory c : com.orderconsole.service.recon.ReconCategory.values()) {
            used.add("recon.category." + c.name());
        }
        for (com.orderconsole.service.recon.FindingDetail d : com.orderconsole.service.recon.FindingDetail.values()) {
            used.add("recon.detail." + d.name());
        }
        for (com.orderconsole.ui.main.Page p : com.orderconsole.ui.main.Page.values()) {
            used.add("main.page." + p.name());
        }
        for (String unit : List.of("ms", "s", "min", "h", "d")) {
            used.add("common.unit." + unit);
        }
        // A literal ending in "." is the start of a key built at run time: covered by the enumerations above.
        used.removeIf(k -> k.endsWith("."));
        assertThat(used).as("keys found in the code").hasSizeGreaterThan(50);
        List<String> missing = new ArrayList<>();
        for (String k : used) {
            if (!en.containsKey(k)) {
                missing.add(k + " (English)");
            }
            if (!zh.containsKey(k)) {
                missing.add(k + " (Chinese)");
            }
        }
        assertThat(missing).as("keys used in code or FXML but missing from a bundle").isEmpty();
    }

    @Test
    void bothLanguagesTakeTheSameValuesAndQuoteApostrophes() throws IOException {
        Properties en = load("/i18n/messages.properties");
        Properties zh = load("/i18n/messages_zh_CN.properties");
        List<String> wrong = new ArrayList<>();
        for (String k : new TreeSet<>(en.stringPropertyNames())) {
            String e = en.getProperty(k);
            String z = zh.getProperty(k, "");
            if (!placeholders(e).equals(placeholders(z))) {
                wrong.add(k + ": English takes " + placeholders(e) + ", Chinese " + placeholders(z));
            }
            if (!z.isBlank() && e.isBlank() != z.isBlank()) {
                wrong.add(k + ": empty in one language only");
            }
            for (String v : List.of(e, z)) {
                // MessageFormat drops a single quote and everything up to the next one: "don't {0}" shows "dont {0}".
                if (PLACEHOLDER.matcher(v).find() && v.replace("''", "").contains("'")) {
                    wrong.add(k + ": single ' in a text with {n} values (write '' for an apostrophe): " + v);
                }
                if (PLACEHOLDER.matcher(v).find()) {
                    try {
                        new java.text.MessageFormat(v, Locale.ROOT).format(new Object[]{1, 2, 3, 4, 5, 6});
                    } catch (IllegalArgumentException bad) {
                        // e.g. '#' inside a choice (it separates the choices): use {0,number,integer} there.
                        wrong.add(k + ": not a valid MessageFormat pattern (" + bad.getMessage() + "): " + v);
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    /** A text given to Messages.format is a MessageFormat pattern even without {n}: a single ' there would vanish. */
    @Test
    void formattedTextsQuoteTheirApostrophes() throws IOException {
        Properties en = load("/i18n/messages.properties");
        Properties zh = load("/i18n/messages_zh_CN.properties");
        Set<String> formatted = new TreeSet<>();
        collect(Path.of("src/main/java"), ".java", Pattern.compile("Messages\\.format\\(\\s*\"([^\"]+)\""), formatted);
        List<String> wrong = new ArrayList<>();
        for (String k : formatted) {
            for (Properties p : List.of(en, zh)) {
                String v = p.getProperty(k, "");
                if (v.replace("''", "").contains("'")) {
                    wrong.add(k + " = " + v);
                }
            }
        }
        assertThat(wrong).as("texts used with Messages.format that hold a single '").isEmpty();
    }

    @Test
    void chineseTextIsChinese() throws IOException {
        Properties en = load("/i18n/messages.properties");
        Properties zh = load("/i18n/messages_zh_CN.properties");
        // A Chinese value equal to its English one is an untranslated copy, unless it holds no words to translate.
        List<String> copies = new ArrayList<>();
        for (String k : new TreeSet<>(en.stringPropertyNames())) {
            String e = en.getProperty(k);
            if (k.endsWith(".native")) {
                continue; // a language's own name, e.g. in the language menu: the same in every language
            }
            if (e.equals(zh.getProperty(k)) && e.replaceAll("\\{[^}]*}|%n|--[a-z-]+|[A-Z_]{2,}\\w*|Redis|MySQL|MariaDB|JSON|CSV|Olist", "").matches(".*\\p{Ll}{3,}.*")) {
                copies.add(k + " = " + e);
            }
        }
        assertThat(copies).as("Chinese texts that are the English text").isEmpty();
    }

    private static Set<String> placeholders(String v) {
        Set<String> s = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(v);
        while (m.find()) {
            s.add(m.group(1));
        }
        return s;
    }

    private static void collect(Path root, String ext, Pattern p, Set<String> into) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(x -> x.toString().endsWith(ext)).toList()) {
                Matcher m = p.matcher(Files.readString(f, StandardCharsets.UTF_8));
                while (m.find()) {
                    into.add(m.group(1));
                }
            }
        }
    }

    private static Properties load(String resource) throws IOException {
        try (InputStream in = I18nKeysTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            return p;
        }
    }
}

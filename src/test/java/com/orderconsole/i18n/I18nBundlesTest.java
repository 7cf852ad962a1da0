package com.orderconsole.i18n;

import com.orderconsole.app.Messages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Both languages are complete: a key in one bundle and not the other fails here, naming the key. */
class I18nBundlesTest {
    @AfterEach
    void backToEnglish() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void everyKeyIsInBothLanguages() throws IOException {
        Set<String> en = keys("/i18n/messages.properties");
        Set<String> zh = keys("/i18n/messages_zh_CN.properties");
        Set<String> onlyEn = new TreeSet<>(en);
        onlyEn.removeAll(zh);
        Set<String> onlyZh = new TreeSet<>(zh);
        onlyZh.removeAll(en);
        assertThat(onlyEn).as("keys with English text and no Chinese").isEmpty();
        assertThat(onlyZh).as("keys with Chinese text and no English").isEmpty();
    }

    @Test
    void anEnglishUserOnAChineseMachineGetsEnglish() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.SIMPLIFIED_CHINESE);
            Messages.use(Locale.ENGLISH);
            assertThat(Messages.locale().getLanguage()).isEqualTo("en");
            Messages.use(Locale.SIMPLIFIED_CHINESE);
            assertThat(Messages.locale()).isEqualTo(Locale.SIMPLIFIED_CHINESE);
        } finally {
            Locale.setDefault(before);
        }
    }

    private static Set<String> keys(String resource) throws IOException {
        try (InputStream in = I18nBundlesTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            return p.stringPropertyNames();
        }
    }
}

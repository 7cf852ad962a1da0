package com.orderconsole.i18n;

import com.orderconsole.app.DeadLetterWords;
import com.orderconsole.app.Messages;
import com.orderconsole.store.DeadLetterRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every dead-letter kind the product writes (the constants of {@link DeadLetterRow}) has words in each language: the
 * console and the CLI show a kind without words as its stored name, which reads as a code to support staff.
 */
class DeadLetterKindWordsTest {
    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void everyKindHasWordsInEnglishAndChinese() throws IllegalAccessException {
        List<String> kinds = kinds();
        assertThat(kinds).contains(DeadLetterRow.REDIS_RESTORED, DeadLetterRow.MALFORMED_ID);
        for (Locale locale : List.of(Locale.ENGLISH, Locale.SIMPLIFIED_CHINESE)) {
            Messages.use(locale);
            for (String kind : kinds) {
                assertThat(DeadLetterWords.kind(kind)).as("words for %s in %s", kind, locale).isNotEqualTo(kind).isNotBlank();
            }
        }
    }

    private static List<String> kinds() throws IllegalAccessException {
        List<Field> fields = Arrays.stream(DeadLetterRow.class.getFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class).toList();
        String[] out = new String[fields.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (String) fields.get(i).get(null);
        }
        return List.of(out);
    }
}

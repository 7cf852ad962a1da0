package com.orderconsole.domain;

import com.orderconsole.app.Messages;
import com.orderconsole.app.RulesWords;
import com.orderconsole.redis.LuaScript;
import com.orderconsole.service.rules.RulesJson;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link OrderStatus} is the one source of the status set, and the compiler cannot see everything that follows it: when
 * a status is added, this test fails naming every place still to touch (a colour per theme in styles/app.css, the
 * status' words in both bundles, the default rules), and it keeps a literal status count or range out of the Lua
 * scripts (they get the count from {@link LuaScript} or from the number of their arguments).
 */
class StatusSetTest {
    private static final Path LUA = Path.of("src/main/resources/lua");
    private static final Path CSS = Path.of("styles/app.css");
    private static final List<String> BUNDLES = List.of("/i18n/messages.properties", "/i18n/messages_zh_CN.properties");

    @Test
    void everyPlaceAStatusNeedsHasEveryStatus() throws IOException {
        List<String> missing = new ArrayList<>();
        codesRunFromOne(missing);
        colours(missing);
        words(missing);
        defaultRules(missing);
        assertThat(missing).as("places to touch for the status set in OrderStatus").isEmpty();
    }

    @Test
    void theLuaScriptsHoldNoLiteralStatusCountOrRange() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(LUA)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".lua")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    for (String what : literalStatusSet(lines.get(i), OrderStatus.count())) {
                        found.add(f.getFileName() + ":" + (i + 1) + ": " + what + " (take the count from LuaScript's "
                                + LuaScript.class.getSimpleName() + " constant or from #ARGV)");
                    }
                }
            }
        }
        assertThat(found).isEmpty();
        for (LuaScript s : LuaScript.values()) {
            assertThat(s.source()).as(s.file() + " as loaded").doesNotContain("${");
        }
        assertThat(LuaScript.TRANSITION.source()).contains("from > " + OrderStatus.count() + " ");
    }

    /** A message naming the status set takes its names and its code range from the enum, in both languages. */
    @Test
    void theUnknownStatusFaultNamesTheSetFromTheEnum() {
        RulesFault f = RulesJson.draft("""
                { "terminal": ["FINISHED", "CANCELLED"], "transitions": { "WAIT_PAY": ["PAID", "CANCELLED", "REFUNDED"],
                  "PAID": ["WAIT_SHIP"], "WAIT_SHIP": ["SHIPPED"], "SHIPPED": ["FINISHED"] } }
                """, 1).faults().stream().filter(x -> x.key().equals("rules.fault.unknownStatus")).findFirst().orElseThrow();
        try {
            assertThat(RulesWords.fault(f)).endsWith("REFUNDED is not a status (use WAIT_PAY, PAID, WAIT_SHIP, SHIPPED, "
                    + "FINISHED, CANCELLED or their codes 1..6)");
            Messages.use(Locale.SIMPLIFIED_CHINESE);
            assertThat(RulesWords.fault(f)).endsWith("REFUNDED 不是状态（请使用 WAIT_PAY, PAID, WAIT_SHIP, SHIPPED, "
                    + "FINISHED, CANCELLED 或其代码 1..6）");
        } finally {
            Messages.use(Locale.ENGLISH);
        }
        assertThatThrownBy(() -> OrderStatus.ofCode(7)).hasMessage("unknown status code 7 (expected 1..6)");
    }

    /** The scan finds what the scripts held before (so it cannot pass by finding nothing) and leaves alone what is no count. */
    @Test
    void theScanFindsTheFormsTheScriptsHeld() {
        assertThat(literalStatusSet("if from < 1 or from > 6 or not version then", 6)).hasSize(1);
        assertThat(literalStatusSet("for s = 1, 6 do", 6)).hasSize(1);
        assertThat(literalStatusSet("return 6", 6)).hasSize(1);
        assertThat(literalStatusSet("local net = {0, 0, 0, 0, 0, 0}", 6)).isNotEmpty();
        assertThat(literalStatusSet("-- KEYS[2] outbox   ARGV[1..6] counted live orders", 6)).hasSize(1);
        assertThat(literalStatusSet("-- a status is one byte '1'..'6'.", 6)).hasSize(1);
        assertThat(literalStatusSet("  redis.call('HINCRBY', KEYS[5], 'c:-6', '1') -- code -6", 6)).isEmpty();
        assertThat(literalStatusSet("if ARGV[2] == '1' and ARGV[6] ~= '' then", 6)).isEmpty();
        assertThat(literalStatusSet("  return '-6,0,0,' .. (t[1] * 1000 + math.floor(t[2] / 1000))", 6)).isEmpty();
    }

    /**
     * @return what in one line of Lua writes the status set down: a range 1..count anywhere (comments too), and in code
     *     (strings and comments left out) the count as a number other than an ARGV/KEYS index, or a table of count numbers
     */
    static List<String> literalStatusSet(String line, int count) {
        List<String> out = new ArrayList<>();
        if (Pattern.compile("'?1'?\\s*\\.\\.\\s*'?" + count + "(?![\\d])").matcher(line).find()) {
            out.add("a literal status range 1.." + count);
        }
        String code = line.replaceAll("'(\\\\.|[^'\\\\])*'|\"(\\\\.|[^\"\\\\])*\"", "''");
        int comment = code.indexOf("--");
        if (comment >= 0) {
            code = code.substring(0, comment);
        }
        Matcher number = Pattern.compile("(?<![\\w.\\[-])" + count + "(?![\\w.])").matcher(code);
        while (number.find()) {
            out.add("the status count " + count + " as a literal");
        }
        if (Pattern.compile("\\{\\s*-?\\d+(\\s*,\\s*-?\\d+){" + (count - 1) + "}\\s*}").matcher(code).find()) {
            out.add("a table of " + count + " numbers, one per status");
        }
        return out;
    }

    /** The scripts rely on codes 1..count (argument positions, counters n:1..n:count); transition.lua reads one byte. */
    private static void codesRunFromOne(List<String> missing) {
        OrderStatus[] all = OrderStatus.values();
        for (int i = 0; i < all.length; i++) {
            if (all[i].code() != i + 1) {
                missing.add("domain/OrderStatus: " + all[i] + " has code " + all[i].code() + ", expected " + (i + 1)
                        + " (codes run 1..count in declaration order)");
            }
        }
        if (all.length > 9) {
            missing.add("lua/transition.lua reads a status as one byte: at most 9 statuses");
        }
    }

    private static void colours(List<String> missing) throws IOException {
        String css = Files.readString(CSS, StandardCharsets.UTF_8);
        for (String selector : List.of(".root", ".root.dark")) {
            Matcher block = Pattern.compile("(?m)^" + Pattern.quote(selector) + "\\s*\\{([^}]*)}").matcher(css);
            String body = block.find() ? block.group(1) : "";
            for (OrderStatus s : OrderStatus.values()) {
                String var = "-status-" + s.name().toLowerCase(Locale.ROOT).replace('_', '-');
                if (!Pattern.compile("(?m)^\\s*" + Pattern.quote(var) + "\\s*:").matcher(body).find()) {
                    missing.add(CSS + ": " + var + " in " + selector + " (the " + (selector.endsWith("dark") ? "dark" : "light")
                            + " theme; StatusColoursContrastTest checks its contrast)");
                }
            }
        }
        for (OrderStatus s : OrderStatus.values()) {
            String cls = "status-" + s.name().toLowerCase(Locale.ROOT);
            String var = "-status-" + s.name().toLowerCase(Locale.ROOT).replace('_', '-');
            for (String rule : List.of(".graph-node." + cls, ".status-badge." + cls)) {
                if (!Pattern.compile("(?m)^" + Pattern.quote(rule) + "\\s*\\{[^}]*" + Pattern.quote(var)).matcher(css).find()) {
                    missing.add(CSS + ": a rule " + rule + " { ... " + var + " }");
                }
            }
        }
    }

    private static void words(List<String> missing) throws IOException {
        for (String bundle : BUNDLES) {
            Properties p = new Properties();
            try (InputStream in = StatusSetTest.class.getResourceAsStream(bundle)) {
                p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
            String to = p.getProperty("cli.opt.to", "");
            for (OrderStatus s : OrderStatus.values()) {
                if (p.getProperty("status." + s.name(), "").isBlank()) {
                    missing.add(bundle + ": status." + s.name());
                }
                if (!to.contains(s.name() + "(" + s.code() + ")")) {
                    missing.add(bundle + ": cli.opt.to names " + s.name() + "(" + s.code() + ")");
                }
            }
        }
    }

    /** The default rules reach every status from WAIT_PAY (where an order is created), or list it as terminal. */
    private static void defaultRules(List<String> missing) {
        TransitionRules d;
        try {
            d = TransitionRules.defaults();
        } catch (InvalidRulesException e) {
            missing.add("domain/TransitionRules.defaults(): " + e.getMessage());
            return;
        }
        Set<OrderStatus> reached = EnumSet.of(OrderStatus.WAIT_PAY);
        Deque<OrderStatus> todo = new ArrayDeque<>(reached);
        while (!todo.isEmpty()) {
            Set<OrderStatus> next = d.targets(todo.pop());
            for (OrderStatus n : next == null ? Set.<OrderStatus>of() : next) {
                if (reached.add(n)) {
                    todo.push(n);
                }
            }
        }
        for (OrderStatus s : OrderStatus.values()) {
            if (!reached.contains(s) && !d.isTerminal(s)) {
                missing.add("domain/TransitionRules.defaults(): " + s + " is neither reached from WAIT_PAY nor terminal");
            }
        }
    }
}

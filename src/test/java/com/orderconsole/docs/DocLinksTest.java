package com.orderconsole.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation a reader navigates: README.md, BENCHMARKS.md and every page under docs/. A relative link must name
 * a file that exists and, with a {@code #fragment}, a heading of that page by GitHub's anchor rules (lower case,
 * punctuation dropped, each space a hyphen, a repeated heading numbered -1, -2 …). README.md stays a front page (at most
 * {@value #README_MAX_LINES} lines), and no line of README.md or docs/ passes {@value #MAX_LINE} characters, so a page
 * reads in a terminal and a diff. The history pages (docs/history/, docs/benchmarks-history.md) are a record kept as
 * written: their links are checked, their line lengths are not.
 */
class DocLinksTest {
    static final int README_MAX_LINES = 300;
    static final int MAX_LINE = 120;
    private static final Path ROOT = Path.of("").toAbsolutePath();
    /** An inline link or image: [text](target) or ![alt](target), with an optional "title". */
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path page : pages()) {
            List<String> lines = prose(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LINK.matcher(CODE_SPAN.matcher(lines.get(i)).replaceAll(""));
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                        continue; // https:, mailto: … are outside this check
                    }
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    String fragment = hash < 0 ? null : target.substring(hash + 1);
                    Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                    String where = ROOT.relativize(page) + ":" + (i + 1) + ": " + target;
                    if (!to.startsWith(ROOT) || !Files.exists(to)) {
                        broken.add(where + " (no such file)");
                    } else if (fragment != null && !fragment.isEmpty()) {
                        if (!to.toString().endsWith(".md")) {
                            broken.add(where + " (an anchor into a file that is not a page)");
                        } else if (!anchors.computeIfAbsent(to, DocLinksTest::anchorsOf).contains(fragment)) {
                            broken.add(where + " (no such heading in " + ROOT.relativize(to) + ")");
                        }
                    }
                }
            }
        }
        assertThat(broken).as("links whose file or heading does not exist").isEmpty();
    }

    @Test
    void theReadmeIsAFrontPageAndNoLineIsTooLong() throws IOException {
        assertThat(Files.readAllLines(ROOT.resolve("README.md")).size()).as("lines of README.md").isLessThanOrEqualTo(README_MAX_LINES);
        List<String> tooLong = new ArrayList<>();
        for (Path page : pages()) {
            String rel = ROOT.relativize(page).toString().replace('\\', '/');
            if (rel.equals("BENCHMARKS.md") || rel.startsWith("docs/history/") || rel.equals("docs/benchmarks-history.md")) {
                continue;
            }
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                int length = lines.get(i).codePointCount(0, lines.get(i).length());
                if (length > MAX_LINE) {
                    tooLong.add(rel + ":" + (i + 1) + " (" + length + " characters)");
                }
            }
        }
        assertThat(tooLong).as("lines over " + MAX_LINE + " characters").isEmpty();
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(anchor("Threat model: what an account can and cannot do")).isEqualTo("threat-model-what-an-account-can-and-cannot-do");
        assertThat(anchor("Keys (Redis)")).isEqualTo("keys-redis");
        assertThat(anchor("The `serve` command — metrics")).isEqualTo("the-serve-command--metrics");
        assertThat(anchor("MySQL 8 / MariaDB 10.6+")).isEqualTo("mysql-8--mariadb-106");
        assertThat(anchorsOf(List.of("# A", "```", "# not a heading", "```", "## A", "### b_c"))).containsExactly("a", "a-1", "b_c");
    }

    /** README.md, BENCHMARKS.md and every page under docs/. */
    private static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("BENCHMARKS.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** The page's lines with those inside fenced code blocks blanked (a link or heading there is text, not markup). */
    private static List<String> prose(Path page) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(page, StandardCharsets.UTF_8));
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                boolean fence = lines.get(i).strip().startsWith("```");
                if (fence || fenced) {
                    lines.set(i, "");
                }
                if (fence) {
                    fenced = !fenced;
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> anchorsOf(Path page) {
        return anchorsOf(prose(page));
    }

    /** The anchors GitHub gives the ATX headings of these lines, a repeated one numbered as GitHub does. */
    static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new LinkedHashSet<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line);
            if (fenced || !m.matches()) {
                continue;
            }
            String base = anchor(m.group(1));
            String a = base;
            for (int n = 1; anchors.contains(a); n++) {
                a = base + "-" + n;
            }
            anchors.add(a);
        }
        return anchors;
    }

    /** GitHub's anchor of a heading: lower case; letters, digits, '-' and '_' kept; each space a '-'; the rest dropped. */
    static String anchor(String heading) {
        StringBuilder out = new StringBuilder();
        heading.toLowerCase(java.util.Locale.ROOT).codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_' || type == Character.NON_SPACING_MARK
                    || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK) {
                out.appendCodePoint(c);
            } else if (c == ' ') {
                out.append('-');
            }
        });
        return out.toString();
    }
}

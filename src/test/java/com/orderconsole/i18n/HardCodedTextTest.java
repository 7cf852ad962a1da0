package com.orderconsole.i18n;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing a user reads is written into the console's FXML or the Java code of the console and the CLI: it
 * comes from the bundles (%key in FXML, Messages.get/format in Java), so both languages are complete.
 *
 * <p>FXML: every attribute or property element a control shows (text, promptText, title, …) must be a %key
 * when it holds a letter. Java, in ui/ and cli/: (1) no string literal with a letter anywhere in the
 * arguments of a call that shows text (setText, new Label, new Tooltip, Feedback ok/error, …), except a
 * Messages key; (2) no literal that reads as words (two words, or a capitalised word) anywhere else, except
 * a Messages key or a line that says why it is machine text with {@code // i18n-ok: <reason>} (CSS,
 * file names, formats for machines). Both checks scan the source text, so a helper method or a constant does
 * not hide a literal from them.
 */
class HardCodedTextTest {
    private static final Path FXML = Path.of("fxml");
    private static final List<Path> JAVA = List.of(Path.of("src/main/java/com/orderconsole/ui"),
            Path.of("src/main/java/com/orderconsole/cli"));

    /** FXML attributes and property elements that put text on the screen. */
    private static final Set<String> FXML_TEXT = Set.of("text", "promptText", "title", "label", "accessibleText",
            "accessibleHelp", "headerText", "contentText", "ellipsisString");

    /** Calls whose arguments are shown to the user. */
    private static final Pattern SINK = Pattern.compile("(\\.(setText|setPromptText|setTitle|setHeaderText|setContentText"
            + "|setAccessibleText|setAccessibleHelp|setLabel|setPlaceholder|appendText|ok|error|couldNot)"
            + "|\\bnew\\s+(Label|Button|ToggleButton|CheckBox|RadioButton|Hyperlink|MenuItem|Menu|CheckMenuItem"
            + "|RadioMenuItem|MenuButton|Tab|TableColumn|TreeTableColumn|Text|TitledPane|Tooltip|Alert|ButtonType"
            + "|XYChart\\.Series|PieChart\\.Data))\\s*\\(");
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
    private static final Pattern KEY_CALL = Pattern.compile("Messages\\.(get|format)\\(\\s*$");
    private static final Pattern WORDS = Pattern.compile("\\p{L}{2,}[\\s\\p{Punct}&&[^._/\\-#:=]]+\\p{L}|^\\s*\\p{Lu}\\p{Ll}+");
    private static final Pattern FORMAT_SPEC = Pattern.compile("%[-#+ 0,(]*\\d*(\\.\\d+)?[a-zA-Z%]");

    @Test
    void fxmlShowsNoTextOutsideTheBundles() throws Exception {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(FXML)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".fxml")).sorted().toList()) {
                Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f.toFile());
                scan(doc.getDocumentElement(), f, found);
            }
        }
        assertThat(found).as("FXML text not taken from the bundles (write %%key and add the key to both bundles)").isEmpty();
    }

    private static void scan(Element e, Path file, List<String> found) {
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Node a = attrs.item(i);
            if (FXML_TEXT.contains(a.getNodeName()) && words(a.getNodeValue()) && !a.getNodeValue().startsWith("%")) {
                found.add(file + ": <" + e.getTagName() + " " + a.getNodeName() + "=\"" + a.getNodeValue() + "\">");
            }
        }
        if (FXML_TEXT.contains(e.getTagName()) && words(e.getTextContent()) && !e.getTextContent().strip().startsWith("%")) {
            found.add(file + ": <" + e.getTagName() + ">" + e.getTextContent().strip());
        }
        // <String> items of a list (e.g. a ComboBox's choices) are shown as they are.
        if ("String".equals(e.getTagName()) && words(e.getAttribute("fx:value")) && !e.getAttribute("fx:value").startsWith("%")) {
            found.add(file + ": <String fx:value=\"" + e.getAttribute("fx:value") + "\">");
        }
        NodeList children = e.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element c) {
                scan(c, file, found);
            }
        }
    }

    @Test
    void javaShowsNoTextOutsideTheBundles() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : JAVA) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    scanJava(f, found);
                }
            }
        }
        assertThat(found).as("text in Java code, not from the bundles (Messages.get/format with a key in both bundles)").isEmpty();
    }

    /** A choice of statuses (a ComboBox or ChoiceBox of OrderStatus) names them as every page does, not by the enum's name. */
    private static final Pattern STATUS_CHOICE = Pattern.compile("(?:ComboBox|ChoiceBox)<OrderStatus>\\s+(\\w+)\\s*[;=]");

    @Test
    void everyChoiceOfStatusesShowsStatusNames() throws IOException {
        List<String> found = new ArrayList<>();
        int choices = 0;
        try (Stream<Path> files = Files.walk(JAVA.get(0))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String code = Files.readString(f, StandardCharsets.UTF_8);
                Matcher m = STATUS_CHOICE.matcher(code);
                while (m.find()) {
                    choices++;
                    String box = Pattern.quote(m.group(1));
                    if (!Pattern.compile("(Cells\\.label|StatusCells\\.use)\\(\\s*" + box + "\\s*,|\\b" + box + "\\.set(Converter|CellFactory)\\(").matcher(code).find()) {
                        found.add(f + ": " + m.group(1));
                    }
                }
            }
        }
        assertThat(choices).as("status choices found (the scan reads the declarations)").isGreaterThanOrEqualTo(3);
        assertThat(found).as("status choices shown by enum name (use Cells.label(box, OrderText::status))").isEmpty();
    }

    /** The scanner finds what it is meant to find: a test of the test, on made-up code. */
    @Test
    void theScannerCatchesTheUsualShapes() {
        List<String> found = new ArrayList<>();
        String code = String.join("\n",
                "label.setText(\"Orders\");",
                "b.setText(count + \" open\");",
                "var l = new Label(\"Depth\");",
                "tooltip = new Tooltip(\"Working as \" + who);",
                "feedback.ok(\"Rules applied.\");",
                "private static final String TITLE = \"Cancel queue\";",
                "String s = \"waiting for MySQL\";",
                "label.setText(Messages.get(\"queue.title\"));",
                "node.setId(\"nav-GRAPH\");",
                "String css = \"-fx-font-size: 12\"; // i18n-ok: CSS",
                "text.append(String.format(\"%-10s %10d%n\", a, b));",
                "label.setText(Messages.format(\"main.deadLetters\", n) + \" \");",
                "String zh = \"订单\";",
                "/** Orders and things. */",
                "// a comment with \"Quoted words\"");
        scanText("Sample.java", code, found);
        assertThat(found).hasSize(8);
        assertThat(String.join("\n", found)).contains("\"Orders\"", "\" open\"", "\"Depth\"", "\"Working as \"",
                "\"Rules applied.\"", "\"Cancel queue\"", "\"waiting for MySQL\"");
    }

    private static void scanJava(Path f, List<String> found) throws IOException {
        scanText(f.toString(), Files.readString(f, StandardCharsets.UTF_8), found);
    }

    private static void scanText(String file, String code, List<String> found) {
        String[] lines = code.split("\n", -1);
        boolean inComment = false;
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            String t = line.strip();
            if (inComment) {
                if (t.contains("*/")) {
                    inComment = false;
                }
                continue;
            }
            if (t.startsWith("/*")) {
                inComment = !t.contains("*/");
                continue;
            }
            if (t.startsWith("//") || t.startsWith("*") || t.startsWith("@")) {
                continue; // comments; annotations hold bundle keys (descriptionKey) or machine names
            }
            if (line.contains("// i18n-ok:")) {
                continue;
            }
            String codePart = stripLineComment(line);
            Matcher m = LITERAL.matcher(codePart);
            while (m.find()) {
                String value = m.group(1);
                if (!hasLetter(value.replaceAll("\\\\.", ""))) {
                    continue;
                }
                String before = codePart.substring(0, m.start());
                if (KEY_CALL.matcher(before).find()) {
                    continue; // a bundle key
                }
                boolean inSink = inSinkArguments(before);
                if (inSink || han(value) || WORDS.matcher(FORMAT_SPEC.matcher(value).replaceAll(" ")).find()) {
                    found.add(file + ":" + (n + 1) + ": \"" + value + "\"" + (inSink ? " shown as text" : ""));
                }
            }
        }
    }

    /** @return true when the text before a literal leaves it inside the parentheses of a text-showing call */
    private static boolean inSinkArguments(String before) {
        Matcher s = SINK.matcher(before);
        int open = -1;
        while (s.find()) {
            open = s.end();
        }
        if (open < 0) {
            return false;
        }
        int depth = 1;
        for (int i = open; i < before.length(); i++) {
            char c = before.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth == 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String stripLineComment(String line) {
        boolean inString = false;
        for (int i = 0; i < line.length() - 1; i++) {
            char c = line.charAt(i);
            if (c == '"' && (i == 0 || line.charAt(i - 1) != '\\')) {
                inString = !inString;
            } else if (!inString && c == '/' && line.charAt(i + 1) == '/') {
                return line.substring(0, i);
            }
        }
        return line;
    }

    private static boolean han(String s) {
        return s.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN);
    }

    private static boolean words(String s) {
        return s != null && hasLetter(s);
    }

    private static boolean hasLetter(String s) {
        return s.codePoints().anyMatch(Character::isLetter);
    }
}

package com.orderconsole.ui;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.main.Page;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;
import javafx.scene.text.Font;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console in simplified Chinese at 1280×800: every page shows its Chinese text, none of the console's
 * own words are left in English, and nothing is cut short (CJK text is wider than Latin text of the same
 * meaning in most places). Needs a CJK font on the machine (.ci/run installs fonts-wqy-microhei).
 */
class ChineseConsoleTest extends ConsoleFxTest {
    /** Two or more English words in a row: the console's own text left untranslated. */
    private static final Pattern ENGLISH_WORDS = Pattern.compile("\\b[a-zA-Z]{2,} [a-z]{2,}\\b");

    @BeforeEach
    void chinese() {
        Messages.use(Languages.ZH_CN);
    }

    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void everyPageSpeaksChineseAndNothingIsCut() throws Exception {
        assertThat(Font.getFamilies()).as("a font with Chinese glyphs (e.g. fonts-wqy-microhei)")
                .anyMatch(f -> f.contains("WenQuanYi") || f.contains("Noto Sans CJK") || f.contains("Source Han")
                        || f.contains("Droid Sans Fallback") || f.contains("AR PL"));
        Operator setup = new Operator("setup", Role.ADMIN);
        for (int i = 1; i <= 12; i++) {
            createOrder(String.format("CN-%03d", i));
            if (i % 3 == 0) {
                services.transitions().transition(setup, TransitionRequest.of(String.format("CN-%03d", i), OrderStatus.PAID, "import", "支付回调"));
            }
        }
        openConsole("李雷", Role.ADMIN);
        List<String> problems = new ArrayList<>();

        waitUntil(() -> vm.graph().snapshotProperty().get() != null && !"–".equals(text("#count-PAID")));
        assertThat(text("#nav-GRAPH")).isEqualTo("状态图");
        assertThat(onFx(() -> lookup("#node-WAIT_PAY .graph-node-name").<Labeled>query().getText())).isEqualTo("待支付");
        // Issue 34: the operator's role and "(local)" stayed in English.
        assertThat(text("#operatorLabel")).isEqualTo("李雷 · 管理员");
        assertThat(com.orderconsole.ui.main.MainViewModel.operatorText(new Operator("root", Role.ADMIN, true))).isEqualTo("root · 管理员（本地）");
        check("状态图", problems);

        interact(() -> vm.showOrders(OrderQuery.all()));
        waitUntil(() -> !rows("#ordersTable").isEmpty());
        interact(() -> vm.showOrder("CN-003"));
        waitUntil(() -> "订单".equals(text("#title")) && "CN-003".equals(text("#orderId")));
        assertThat(text("#statusBadge")).isEqualTo("已支付");
        check("订单", problems);

        interact(() -> vm.pageProperty().set(Page.QUEUE));
        waitUntil(() -> !rows("#queueTable").isEmpty());
        assertThat(text("#pauseButton")).isEqualTo("暂停清扫器");
        check("取消队列", problems);

        interact(() -> vm.pageProperty().set(Page.RECON));
        clickOn("#runButton");
        waitUntil(() -> !rows("#categoryTable").isEmpty());
        assertThat(text("#progressText")).contains("检查了", "个订单");
        check("对账", problems);

        interact(() -> vm.pageProperty().set(Page.MONITOR));
        waitUntil(() -> vm.monitor().readingProperty().get() != null);
        assertThat(text("#totals")).contains("已执行");
        check("指标", problems);

        interact(() -> vm.pageProperty().set(Page.RULES));
        waitUntil(() -> vm.rules().inForceProperty().get() != null);
        assertThat(text("#rulesVersion")).contains("生效中");
        check("规则", problems);

        assertThat(problems).as("text cut short, or the console's own words left in English").isEmpty();
    }

    private void check(String page, List<String> problems) {
        interact(() -> {
            Window w = view.root().getScene().getWindow();
            w.setWidth(1280);
            w.setHeight(800);
        });
        WaitForAsyncUtils.waitForFxEvents();
        onFx(() -> {
            view.root().applyCss();
            view.root().layout();
            CutTexts.collect(view.root(), page, problems);
            english(view.root(), page, problems);
            return null;
        });
    }

    /** Labels and buttons (not table or list cells, which show data such as ids and reasons) in Chinese. */
    private static void english(Node node, String page, List<String> problems) {
        if (!node.isVisible() || node instanceof IndexedCell<?>) {
            return;
        }
        if (node instanceof Labeled l && l.getText() != null && ENGLISH_WORDS.matcher(l.getText()).find()) {
            problems.add(page + ": English text " + (l.getId() == null ? "" : "#" + l.getId() + " ") + "\"" + l.getText() + "\"");
        }
        if (node instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(c -> english(c, page, problems));
        }
    }
}

package com.orderconsole.ui.main;

import com.orderconsole.app.Messages;
import com.orderconsole.ui.metrics.MetricsEndpointView;
import com.orderconsole.ui.monitor.MonitorView;
import org.controlsfx.control.Notifications;

import com.orderconsole.service.monitor.Health;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.audit.AuditView;
import com.orderconsole.ui.bulk.BulkView;
import com.orderconsole.ui.graph.StateGraphView;
import com.orderconsole.ui.order.OrderDetailView;
import com.orderconsole.ui.order.OrderTableView;
import com.orderconsole.ui.queue.CancelQueueView;
import com.orderconsole.ui.recon.ReconciliationView;
import com.orderconsole.ui.rules.RulesView;
import com.orderconsole.ui.traffic.TrafficView;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Settings.Theme;
import com.orderconsole.ui.common.Themes;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The main window: navigation on the left, the current page in the middle, server health at the
 * bottom. Pages are built on first visit. Shortcuts: F5 refresh, Ctrl+F order lookup, Ctrl+Shift+D dark theme on/off.
 */
public final class MainView {
    /** Period of the auto-refresh tick. */
    public static final Duration TICK = Duration.seconds(2);

    private final MainViewModel vm;
    private final BorderPane root;
    private final Map<Page, Node> pages = new EnumMap<>(Page.class);
    private final Timeline ticker;
    private OrderTableView ordersView;

    @FXML private Label operatorLabel;
    @FXML private ToggleButton autoRefreshToggle;
    @FXML private VBox nav;
    @FXML private StackPane content;
    @FXML private Label redisStatus;
    @FXML private Label mysqlStatus;
    @FXML private Label rulesStatus;
    @FXML private Label warningsLabel;
    @FXML private Label noticeLabel;
    @FXML private Label deadLettersStatus;
    @FXML private CheckMenuItem darkItem;
    @FXML private RadioMenuItem languageSystem;
    @FXML private RadioMenuItem languageEn;
    @FXML private RadioMenuItem languageZh;

    public MainView(MainViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/main/MainView.fxml", this);
        this.ticker = new Timeline(new KeyFrame(TICK, e -> vm.tick()));
        ticker.setCycleCount(Timeline.INDEFINITE);
        operatorLabel.setText(vm.operatorText());
        operatorLabel.setTooltip(new Tooltip(Messages.format("main.operator.tooltip", vm.operatorText())));
        autoRefreshToggle.selectedProperty().bindBidirectional(vm.autoRefreshProperty());
        buildNav();
        bindStatusBar();
        bindSettings(vm.settings());
        addEnvironmentBand();
        showAlerts();
        vm.pageProperty().addListener((o, a, p) -> show(p));
        show(vm.pageProperty().get());
        root.sceneProperty().addListener((o, a, scene) -> {
            if (scene != null) {
                installShortcuts(scene);
            }
        });
    }

    /** @return the window's root node */
    public BorderPane root() {
        return root;
    }

    /** Loads the first data and starts the auto-refresh tick. */
    public void start() {
        vm.start();
        ticker.play();
    }

    /** Stops the tick (before the engine closes). */
    public void stop() {
        ticker.stop();
    }

    /**
     * The environment's name and colour above every page: a full-width band in the profile's colour, so
     * that production never looks like a test server.
     */
    private void addEnvironmentBand() {
        Label band = new Label(vm.environmentText());
        band.setId("environmentBand");
        band.setMaxWidth(Double.MAX_VALUE);
        band.setMinHeight(Label.USE_PREF_SIZE);
        band.getStyleClass().add("environment-band");
        band.setStyle(Styles.environmentBand(vm.environment()));
        band.setTooltip(new Tooltip(Messages.format("env.band.tooltip", vm.environment().name(),
                Messages.get("env.kind." + vm.environment().kind().key()))));
        Button openLogs = new Button(Messages.get("settings.logs.open"));
        openLogs.setId("openLogFolderButton");
        openLogs.setMinWidth(Button.USE_PREF_SIZE);
        openLogs.setVisible(vm.logFolder() != null);
        openLogs.setManaged(vm.logFolder() != null);
        if (vm.logFolder() != null) {
            openLogs.setTooltip(new Tooltip(Messages.format("settings.logs.tooltip", vm.logFolder())));
        }
        openLogs.setOnAction(e -> vm.openLogFolder());
        if (root.getTop() instanceof javafx.scene.layout.HBox header) {
            header.getChildren().add(header.getChildren().size() - 1, openLogs);
        }
        root.setTop(new VBox(band, root.getTop()));
    }

    /** Each alert notice once, as a ControlsFX notification over the window. */
    private void showAlerts() {
        vm.alerts().notices().addListener((ListChangeListener<AlertsViewModel.Notice>) c -> {
            while (c.next()) {
                for (AlertsViewModel.Notice n : c.getAddedSubList()) {
                    if (root.getScene() == null || root.getScene().getWindow() == null) {
                        continue;
                    }
                    Notifications note = Notifications.create().owner(root.getScene().getWindow()).title(n.title()).text(n.text())
                            .hideAfter(Duration.seconds(n.raised() ? 30 : 8));
                    if (n.raised()) {
                        note.showWarning();
                    } else {
                        note.showInformation();
                    }
                }
            }
        });
    }

    private void buildNav() {
        ToggleGroup group = new ToggleGroup();
        for (Page p : Page.values()) {
            ToggleButton b = new ToggleButton(p.title());
            b.setId("nav-" + p.name());
            b.setToggleGroup(group);
            b.setMaxWidth(Double.MAX_VALUE);
            b.getStyleClass().add(Styles.NAV_BUTTON);
            b.setSelected(p == vm.pageProperty().get());
            b.setOnAction(e -> {
                // A toggle group lets the selected button be unselected; a page is always shown.
                b.setSelected(true);
                vm.pageProperty().set(p);
            });
            vm.pageProperty().addListener((o, a, now) -> b.setSelected(now == p));
            nav.getChildren().add(b);
        }
        // Arrow keys in the navigation switch the page itself, not only the highlight.
        nav.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            int step = e.getCode() == KeyCode.UP || e.getCode() == KeyCode.LEFT ? -1
                    : e.getCode() == KeyCode.DOWN || e.getCode() == KeyCode.RIGHT ? 1 : 0;
            if (step != 0) {
                Page[] all = Page.values();
                Page next = all[(vm.pageProperty().get().ordinal() + step + all.length) % all.length];
                vm.pageProperty().set(next);
                nav.getChildren().get(next.ordinal()).requestFocus();
                e.consume();
            }
        });
    }

    private void show(Page p) {
        content.getChildren().setAll(pages.computeIfAbsent(p, this::build));
    }

    /** @return the words in place of a feature that runs only beside the stores, not over serve */
    private static Node localOnly(String key) {
        javafx.scene.control.Label why = new javafx.scene.control.Label(Messages.get(key));
        why.setWrapText(true);
        why.getStyleClass().add("hint");
        return why;
    }

    private Node build(Page p) {
        return switch (p) {
            // The traffic panel sits beside the graph, so its effect is seen as it happens.
            case GRAPH -> new StateGraphView(vm.graph(), vm.traffic() == null ? localOnly("remote.traffic")
                    : new TrafficView(vm.traffic()).root()).root();
            case ORDERS -> {
                ordersView = new OrderTableView(vm.orders(), new OrderDetailView(vm.detail()), vm::showOrder);
                yield ordersView.root();
            }
            case QUEUE -> new CancelQueueView(vm.queue()).root();
            case RECON -> new ReconciliationView(vm.recon(), vm.deadLetters()).root();
            case MONITOR -> {
                Node page = new MonitorView(vm.monitor()).root();
                VBox.setVgrow(page, javafx.scene.layout.Priority.ALWAYS);
                yield new VBox(vm.metricsEndpoint() == null ? localOnly("remote.metricsEndpoint")
                        : new MetricsEndpointView(vm.metricsEndpoint()).root(), page);
            }
            case RULES -> new RulesView(vm.rules()).root();
            case BULK -> new BulkView(vm.bulk()).root();
            case AUDIT -> new AuditView(vm.audit()).root();
        };
    }

    private void installShortcuts(Scene scene) {
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F5), vm::refresh);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN), () -> {
            vm.pageProperty().set(Page.ORDERS);
            ordersView.focusLookup();
        });
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.D, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN),
                () -> vm.settings().toggleTheme());
    }

    private void bindStatusBar() {
        noticeLabel.textProperty().bind(vm.statusBar().noticeProperty());
        vm.statusBar().openDeadLettersProperty().addListener((o, a, n) -> {
            long open = n.longValue();
            deadLettersStatus.setText(open < 0 ? Messages.get("main.deadLetters.unknown") : Messages.format("main.deadLetters.open", open));
            Styles.pick(deadLettersStatus, open > 0 ? Styles.DOWN : open == 0 ? Styles.UP : null, Styles.UP, Styles.DOWN);
            deadLettersStatus.setTooltip(new Tooltip(Messages.get("main.deadLetters.tooltip")));
        });
        vm.statusBar().healthProperty().addListener((o, a, h) -> showHealth(h));
        vm.statusBar().warnings().addListener((ListChangeListener<String>) c -> {
            String text = String.join(" · ", vm.statusBar().warnings());
            warningsLabel.setText(text.isEmpty() ? "" : Messages.format("main.warnings", text));
            warningsLabel.setTooltip(text.isEmpty() ? null : new Tooltip(String.join(System.lineSeparator(), vm.statusBar().warnings())));
        });
    }

    /** The settings menu: the dark theme switches at once (also Ctrl+Shift+D); a language at the next start. */
    private void bindSettings(SettingsViewModel settings) {
        darkItem.setSelected(settings.themeProperty().get() == Theme.DARK);
        darkItem.selectedProperty().addListener((o, a, dark) -> settings.themeProperty().set(dark ? Theme.DARK : Theme.LIGHT));
        settings.themeProperty().addListener((o, a, t) -> {
            darkItem.setSelected(t == Theme.DARK);
            Themes.apply(t);
        });
        ToggleGroup languages = new ToggleGroup();
        Map<RadioMenuItem, Locale> choices = new java.util.LinkedHashMap<>();
        choices.put(languageSystem, null);
        choices.put(languageEn, Locale.ENGLISH);
        choices.put(languageZh, Languages.ZH_CN);
        choices.forEach((item, locale) -> {
            item.setToggleGroup(languages);
            item.setSelected(java.util.Objects.equals(settings.languageProperty().get(), locale));
            item.setOnAction(e -> settings.languageProperty().set(locale));
        });
        settings.feedback().messageProperty().addListener((o, a, text) -> {
            if (!text.isEmpty()) {
                vm.statusBar().noticeProperty().set(text);
            }
        });
    }

    private void showHealth(Health h) {
        upDown(redisStatus, "main.redis", h.redisUp());
        showMasters(h);
        upDown(mysqlStatus, "main.mysql", h.mysqlUp());
        rulesStatus.setText(h.rulesVersion() == null ? Messages.get("main.rules.unknown") : Messages.format("main.rules.version", h.rulesVersion()));
    }

    /** On a Redis Cluster: how many masters, and in the tooltip each one's share of the buckets. */
    private void showMasters(Health h) {
        if (!h.redisUp() || h.masters().size() < 2) {
            redisStatus.setTooltip(null);
            return;
        }
        redisStatus.setText(Messages.format("main.status.redisMasters", h.masters().size()));
        StringBuilder tip = new StringBuilder();
        h.masters().forEach(m -> tip.append(Messages.format("main.status.redisMaster", m.where(),
                m.buckets(), m.share())).append('\n'));
        tip.append(Messages.format("main.status.redisSpread", h.maxOverMean()));
        redisStatus.setTooltip(new Tooltip(tip.toString()));
    }

    private static void upDown(Label l, String key, boolean up) {
        String state = key + (up ? ".up" : ".down"); // i18n-ok: builds a key
        l.setText(Messages.get(state));
        Styles.pick(l, up ? Styles.UP : Styles.DOWN, Styles.UP, Styles.DOWN);
    }

    @FXML
    private void onRefresh() {
        vm.refresh();
    }
}

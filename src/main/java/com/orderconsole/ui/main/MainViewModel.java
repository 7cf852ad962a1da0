package com.orderconsole.ui.main;

import com.orderconsole.app.Settings;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Environment;
import com.orderconsole.ui.metrics.MetricsEndpointViewModel;
import com.orderconsole.ui.monitor.MonitorViewModel;

import com.orderconsole.domain.Operator;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Navigator;
import com.orderconsole.ui.common.Refreshable;
import com.orderconsole.ui.audit.AuditViewModel;
import com.orderconsole.ui.bulk.BulkViewModel;
import com.orderconsole.ui.graph.StateGraphViewModel;
import com.orderconsole.ui.order.OrderDetailViewModel;
import com.orderconsole.ui.order.OrderTableViewModel;
import com.orderconsole.ui.queue.CancelQueueViewModel;
import com.orderconsole.ui.recon.DeadLettersViewModel;
import com.orderconsole.ui.recon.ReconciliationViewModel;
import com.orderconsole.ui.rules.RulesViewModel;
import com.orderconsole.ui.traffic.TrafficViewModel;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The main window's model: which page is shown, navigation between pages, refresh (F5 and the
 * pausable auto-refresh tick), and the page models themselves, each given only the services it uses.
 */
public final class MainViewModel implements Navigator {
    private final Operator operator;
    private final ObjectProperty<Page> page = new SimpleObjectProperty<>(Page.GRAPH);
    private final BooleanProperty autoRefresh = new SimpleBooleanProperty(true);
    private final Set<Page> loadedOnce = EnumSet.noneOf(Page.class);

    private final StatusBarViewModel statusBar;
    private final StateGraphViewModel graph;
    private final OrderTableViewModel orders;
    private final OrderDetailViewModel detail;
    private final CancelQueueViewModel queue;
    private final ReconciliationViewModel recon;
    private final DeadLettersViewModel deadLetters;
    private final MonitorViewModel monitor;
    private final TrafficViewModel traffic;
    private final Refreshable graphPage;
    private final Refreshable ordersPage;
    private final RulesViewModel rules;
    private final SettingsViewModel settings;
    private final BulkViewModel bulk;
    private final AuditViewModel audit;
    private final Environment environment;
    private final AlertsViewModel alerts;
    private final MetricsEndpointViewModel metricsEndpoint;
    private final Background background;
    private java.nio.file.Path logFolder;
    private java.util.function.Consumer<java.nio.file.Path> folderOpener;

    /**
     * With the settings of this user (read here: the console itself passes those it read at start).
     *
     * @param ctx the services, the operator, the background runner and the dialogs the pages share
     */
    public MainViewModel(ConsoleContext ctx) {
        this(ctx, Settings.load());
    }

    /**
     * @param ctx the services, the operator, the background runner and the dialogs the pages share
     * @param userSettings theme and language chosen by the user, saved again when changed in the menu
     */
    public MainViewModel(ConsoleContext ctx, Settings userSettings) {
        ConsoleServices s = ctx.services();
        Background bg = ctx.background();
        DialogService dialogs = ctx.dialogs();
        this.operator = ctx.operator();
        this.environment = ctx.environment();
        this.background = bg;
        alerts = new AlertsViewModel(s.alerts(), bg);
        // Local-only features are null when absent (remote): their panels say why.
        metricsEndpoint = new MetricsEndpointViewModel(s.metricsEndpoint().orElse(null), bg);
        statusBar = new StatusBarViewModel(s.health(), s.deadLetters(), bg);
        graph = new StateGraphViewModel(s.rules(), s.monitor(), s.stuckThresholds(), s.reconciliation(), operator, bg,
                dialogs, this);
        detail = new OrderDetailViewModel(s.orders(), s.transitions(), operator, bg, dialogs);
        orders = new OrderTableViewModel(s.orders(), bg, this::showOrder);
        // The open order and its table row show the same reading: each read of the details updates the row.
        detail.setOnRead(orders::updateRow);
        orders.setOnLookupRefused(detail::clear);
        orders.setOnListingChanged(detail::dismissError);
        ordersPage = () -> {
            orders.refresh();
            detail.refresh();
        };
        queue = new CancelQueueViewModel(s.queue(), operator, bg, dialogs);
        deadLetters = new DeadLettersViewModel(s.deadLetters(), operator, bg, dialogs);
        recon = new ReconciliationViewModel(s.reconciliation(), operator, bg, dialogs, orders::currentQuery);
        monitor = new MonitorViewModel(s.monitor(), bg);
        traffic = new TrafficViewModel(s.trafficSimulator().orElse(null), operator, bg, dialogs);
        // The traffic panel sits on the graph page: its counters refresh with the graph.
        graphPage = () -> {
            graph.refresh();
            if (traffic != null) {
                traffic.refresh();
            }
        };
        // New rules redraw the graph and show their version in the status bar at once, not on the next tick.
        rules = new RulesViewModel(s.rules(), s.rulesWhatIf(), operator, bg, dialogs, () -> {
            graph.refresh();
            statusBar.check();
        });
        bulk = new BulkViewModel(s.bulk(), operator, bg, dialogs, orders::filterAsShown);
        orders.setOnBulkMove((ids, filter) -> {
            if (ids == null) {
                bulk.useFilter(filter);
            } else {
                bulk.useSelection(ids);
            }
            page.set(Page.BULK);
        });
        audit = new AuditViewModel(s.audit(), bg, dialogs);
        page.addListener((o, a, p) -> onShown(p));
        settings = new SettingsViewModel(userSettings, bg);
    }

    /** @return the settings menu's model: theme and language */
    public SettingsViewModel settings() {
        return settings;
    }

    /** Loads the first page and the status bar; call once the window is up. */
    public void start() {
        statusBar.check();
        onShown(page.get());
    }

    private void onShown(Page p) {
        if (loadedOnce.add(p) || p.autoRefresh()) {
            if (p == Page.ORDERS && orders.rows().isEmpty()) {
                orders.search();
            } else {
                refreshable(p).ifPresent(Refreshable::refresh);
            }
        }
    }

    /** F5: reloads the visible page (and the open order, on the orders page) and the status bar. */
    public void refresh() {
        statusBar.check();
        refreshable(page.get()).ifPresent(Refreshable::refresh);
    }

    /** The auto-refresh tick: status bar always; the visible page when it auto-refreshes and refresh is not paused. */
    public void tick() {
        statusBar.check();
        alerts.check();
        if (autoRefresh.get() && page.get().autoRefresh()) {
            refreshable(page.get()).ifPresent(Refreshable::refresh);
        }
    }

    private Optional<Refreshable> refreshable(Page p) {
        return Optional.ofNullable(switch (p) {
            case GRAPH -> graphPage;
            case ORDERS -> ordersPage;
            case QUEUE -> queue;
            case MONITOR -> monitor;
            case RULES -> rules;
            case RECON -> null;
            case BULK -> bulk;
            case AUDIT -> audit;
        });
    }

    @Override
    public void showOrders(OrderQuery query) {
        // The detail closes below: no row may stay selected (shaded) beside "Select an order" (issue 34).
        orders.selectedProperty().set(null);
        orders.apply(query);
        loadedOnce.add(Page.ORDERS);
        detail.clear();
        page.set(Page.ORDERS);
    }

    @Override
    public void showOrder(String orderId) {
        loadedOnce.add(Page.ORDERS);
        page.set(Page.ORDERS);
        detail.load(orderId);
    }

    /** @return e.g. "alice · support" */
    public String operatorText() {
        return operatorText(operator);
    }

    /**
     * @param who an operator
     * @return e.g. "alice · support", "rita · read-only"
     */
    public static String operatorText(Operator who) {
        return com.orderconsole.ui.common.OrderText.operator(who); // "alice · support", or "root · admin (local)" on the embedded servers
    }

    /** @return the environment worked on */
    public Environment environment() {
        return environment;
    }

    /** @return the band's text, e.g. "prod-eu · production" */
    public String environmentText() {
        return Messages.format("env.band", environment.name(), Messages.get("env.kind." + environment.kind().key()));
    }

    /** @return the alert notices (ControlsFX notifications in the view) */
    public AlertsViewModel alerts() {
        return alerts;
    }

    /** @return the Prometheus endpoint switch, shown on the Monitor page; null in remote mode (serve publishes its own) */
    public MetricsEndpointViewModel metricsEndpoint() {
        return metricsEndpoint;
    }

    /**
     * Where the log files are and how to show a folder to the user (the desktop's file manager).
     *
     * @param folder the log folder
     * @param opener opens a folder; called off the UI thread
     */
    public void setLogFolder(java.nio.file.Path folder, java.util.function.Consumer<java.nio.file.Path> opener) {
        this.logFolder = folder;
        this.folderOpener = opener;
    }

    /** @return the log folder, or null when the console writes no log file */
    public java.nio.file.Path logFolder() {
        return logFolder;
    }

    /** Opens the log folder in the desktop's file manager, off the UI thread; a failure is said in the status bar. */
    public void openLogFolder() {
        if (logFolder == null || folderOpener == null) {
            return;
        }
        java.nio.file.Path folder = logFolder;
        background.run(Messages.get("main.logFolder.action"), job -> {
            java.nio.file.Files.createDirectories(folder);
            folderOpener.accept(folder);
            return null;
        }, x -> { }, text -> statusBar.noticeProperty().set(Messages.format("settings.logs.failed", folder, text)));
    }

    public ObjectProperty<Page> pageProperty() {
        return page;
    }

    /** @return false while auto-refresh is paused */
    public BooleanProperty autoRefreshProperty() {
        return autoRefresh;
    }

    public StatusBarViewModel statusBar() {
        return statusBar;
    }

    public StateGraphViewModel graph() {
        return graph;
    }

    public OrderTableViewModel orders() {
        return orders;
    }

    public OrderDetailViewModel detail() {
        return detail;
    }

    /** @return the Bulk moves page */
    public BulkViewModel bulk() {
        return bulk;
    }

    /** @return the Audit page */
    public AuditViewModel audit() {
        return audit;
    }

    public CancelQueueViewModel queue() {
        return queue;
    }

    public ReconciliationViewModel recon() {
        return recon;
    }

    /** @return the dead letters' model (a tab of the reconciliation page) */
    public DeadLettersViewModel deadLetters() {
        return deadLetters;
    }

    /** @return the Monitor page's model */
    public MonitorViewModel monitor() {
        return monitor;
    }

    /** @return the rules page's model */
    public RulesViewModel rules() {
        return rules;
    }

    /** @return the live-traffic panel's model; null in remote mode (it would drive serve's stores from here) */
    public TrafficViewModel traffic() {
        return traffic;
    }
}

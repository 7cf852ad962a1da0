package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.app.StoryWords;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Slider;
import javafx.scene.text.Text;
import javafx.scene.layout.VBox;

/** The story of an order, inside the order detail: timeline, state at a moment, JSON export. Binds only. */
public final class OrderStoryView {
    private final OrderStoryViewModel vm;
    private final VBox root;

    @FXML private Slider momentSlider;
    @FXML private Button exportButton;
    @FXML private Label stateAt;
    @FXML private ListView<OrderStory.Step> stepsList;
    @FXML private Label storyMessage;

    public OrderStoryView(OrderStoryViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/order/OrderStoryView.fxml", this);
        bind();
    }

    /** @return the view's root node */
    public VBox root() {
        return root;
    }

    private void bind() {
        vm.storyProperty().addListener((o, a, st) -> {
            momentSlider.setDisable(st == null || st.steps().isEmpty());
            if (st != null) {
                momentSlider.setMin(vm.firstMs());
                momentSlider.setMax(Math.max(vm.firstMs() + 1, st.atMs()));
            }
        });
        momentSlider.setDisable(true);
        momentSlider.valueProperty().bindBidirectional(vm.momentProperty());
        exportButton.disableProperty().bind(vm.storyProperty().isNull().or(vm.work().executableProperty().not()));
        stateAt.textProperty().bind(vm.stateAtProperty());
        stepsList.setItems(vm.steps());
        stepsList.setPlaceholder(new Label(Messages.get("story.empty")));
        stepsList.setCellFactory(l -> new StepCell());
        // The list is first laid out while the pane opens, narrower than it ends up: wrapped rows are measured again.
        stepsList.widthProperty().addListener((o, a, b) -> stepsList.refresh());
        stepsList.getSelectionModel().selectedItemProperty().addListener((o, a, s) -> vm.select(s));
        Styles.toggle(storyMessage, vm.feedback());
        storyMessage.visibleProperty().bind(vm.feedback().messageProperty().isNotEmpty());
        storyMessage.managedProperty().bind(storyMessage.visibleProperty());
    }

    @FXML
    private void onExport() {
        vm.exportJson();
    }

    /**
     * One step: when, the Redis and MySQL versions, and what happened in words. Text nodes, not labels: a Text
     * with a wrapping width knows its height, so a long explanation wraps instead of running under the next row.
     */
    private static final class StepCell extends ListCell<OrderStory.Step> {
        StepCell() {
            setPrefWidth(0);
        }

        @Override
        protected void updateItem(OrderStory.Step s, boolean empty) {
            super.updateItem(s, empty);
            if (empty || s == null) {
                setGraphic(null);
                return;
            }
            Text when = new Text(Formats.dateTime(s.entry().atMs()) + "   " + StoryWords.versions(s));
            when.setStyle(s.syncPending() ? "-fx-fill: -color-warning-fg;" : "-fx-fill: -color-fg-muted;");
            Text what = new Text(StoryWords.step(s));
            what.setStyle(s.entry().code().applied() ? "-fx-font-weight: bold;" : "-fx-fill: -color-danger-fg; -fx-font-weight: bold;");
            for (Text t : new Text[] {when, what}) {
                t.wrappingWidthProperty().bind(getListView().widthProperty().subtract(40));
            }
            setGraphic(new VBox(2, when, what));
        }
    }
}

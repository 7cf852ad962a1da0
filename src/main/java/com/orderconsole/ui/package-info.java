/**
 * The JavaFX console: the application shell ({@link com.orderconsole.ui.OrderConsoleApp}) and one sub-package per page,
 * each named after the service capability it shows (View binds FXML from fxml/&lt;page&gt;/, ViewModel holds state and
 * actions and talks only to the services it is given). Nothing here reaches Redis or MySQL directly.
 */
package com.orderconsole.ui;

/**
 * What every page shares: running work off the JavaFX thread ({@link com.orderconsole.ui.common.Background},
 * {@link com.orderconsole.ui.common.Command}), asking the user ({@link com.orderconsole.ui.common.DialogService}),
 * tables that keep their selection across reloads, keyset paging, formats, style classes and themes.
 */
package com.orderconsole.ui.common;

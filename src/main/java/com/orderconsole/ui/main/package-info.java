/** The main window: navigation, the start splash, the status bar, alerts, settings, refresh; it builds each page model with only the services that page uses. */
package com.orderconsole.ui.main;

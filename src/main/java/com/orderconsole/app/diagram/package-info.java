/** The state graph as pictures and text without JavaFX: the ELK layout, a PNG painter, PlantUML and Mermaid text; shared by the graph page and {@code rules export}. */
package com.orderconsole.app.diagram;

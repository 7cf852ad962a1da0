/** The state graph page: the rules in force laid out by ELK, live and stuck counts per status, moves per edge. */
package com.orderconsole.ui.graph;

/** The rules page: the transition rules in force, an editable copy validated with every fault named, applied as the next version. */
package com.orderconsole.ui.rules;

/** The profile picker: which environment the console opens on, before anything starts. */
package com.orderconsole.ui.profile;

/** Flyway migrations written in Java (found next to the SQL ones in {@code db/migration}). */
package com.orderconsole.store.migration;

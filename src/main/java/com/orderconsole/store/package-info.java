/**
 * MySQL: {@link com.orderconsole.store.Database} (pool, Flyway migrations, units of work) and one class per
 * table, reached through {@link com.orderconsole.store.Tables} inside a unit of work. MyBatis mappers are
 * this package's inside.
 */
package com.orderconsole.store;

package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Creates the console's database roles and grants them on the schema's tables (see {@link ConsoleRoles}).
 * Java rather than SQL because a server without grant tables (the embedded default) refuses
 * {@code CREATE ROLE}; there the migration does nothing.
 */
public class V20__Console_roles extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        ConsoleRoles.createAndGrant(context.getConnection());
    }

    @Override
    public boolean canExecuteInTransaction() {
        // GRANT and CREATE ROLE commit implicitly.
        return false;
    }
}

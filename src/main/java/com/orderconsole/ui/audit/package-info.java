/** The audit page: every recorded action across orders, filtered and keyset-paged, with CSV and JSON export. */
package com.orderconsole.ui.audit;

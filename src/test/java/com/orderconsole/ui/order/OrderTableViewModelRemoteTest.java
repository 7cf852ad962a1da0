package com.orderconsole.ui.order;

/** The orders table's model on the remote services, through serve's API: the same tests, the same outcomes. */
class OrderTableViewModelRemoteTest extends OrderTableViewModelTest {
    @Override
    protected boolean remote() {
        return true;
    }
}

package com.orderconsole.ui.order;

/** OrderDetailViewModel's cases on the remote services, through serve's API: the same tests, the same outcomes. */
class OrderDetailViewModelRemoteTest extends OrderDetailViewModelTest {
    @Override
    protected boolean remote() {
        return true;
    }
}

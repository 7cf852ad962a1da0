package com.orderconsole.ui.order;

/** OrderStoryViewModel's cases on the remote services, through serve's API: the same tests, the same outcomes. */
class OrderStoryViewModelRemoteTest extends OrderStoryViewModelTest {
    @Override
    protected boolean remote() {
        return true;
    }
}

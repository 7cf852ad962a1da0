package com.orderconsole.ui.graph;

/** StateGraphViewModel's cases on the remote services, through serve's API: the same tests, the same outcomes. */
class StateGraphViewModelRemoteTest extends StateGraphViewModelTest {
    @Override
    protected boolean remote() {
        return true;
    }
}

package com.orderconsole.ui.rules;

/** RulesViewModel's cases on the remote services, through serve's API: the same tests, the same outcomes. */
class RulesViewModelRemoteTest extends RulesViewModelTest {
    @Override
    protected boolean remote() {
        return true;
    }
}

package com.orderconsole.service.recon;

import com.orderconsole.domain.Role;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A category's repair policy and words live on the category (issue 35 item 3); the service, console and CLI ask it. */
class ReconCategoryPolicyTest {

    @Test
    void copyingRedisOnlyOrdersIntoMysqlTakesAnAdminWithAReasonAndEveryOtherRepairOpsAlone() {
        for (ReconCategory c : ReconCategory.values()) {
            boolean override = c == ReconCategory.MISSING_IN_MYSQL;
            assertThat(c.repairRole()).as("%s", c).isEqualTo(override ? Role.ADMIN : Role.OPS);
            assertThat(c.reasonRequired()).as("%s", c).isEqualTo(override);
            assertThat(c.mayRepair(Role.SUPPORT, "why")).as("%s by support", c).isFalse();
            assertThat(c.mayRepair(Role.OPS, "")).as("%s by ops without a reason", c).isEqualTo(!override);
            assertThat(c.mayRepair(Role.ADMIN, " ")).as("%s by admin with a blank reason", c).isEqualTo(!override);
            assertThat(c.mayRepair(Role.ADMIN, "order placed during the outage")).as("%s by admin with a reason", c).isTrue();
        }
    }

    @Test
    void theEnglishNameIsTheBundlesOne() {
        assertThat(ReconCategory.MISSING_IN_MYSQL.label()).isEqualTo("Missing in MySQL");
        assertThat(ReconCategory.COUNTERS_DRIFT.wordsKey()).isEqualTo("recon.category.COUNTERS_DRIFT");
    }
}

package com.orderconsole.i18n;

import com.orderconsole.PlantedDrift;
import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Services;
import com.orderconsole.service.recon.FindingDetail;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.ReconCategory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reconciliation finding's detail has two forms: English words (CSV, --json) and a kind with values (the
 * user's language). In English both must read the same, for every kind a real compare produces; in Chinese
 * the kind's text is used.
 */
class FindingDetailWordsTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void theWordsOfEachKindMatchTheEnglishDetail() {
        try (Engine e = TestServers.freshEngine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            PlantedDrift.plant(s, raw, support);

            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            List<ReconFinding> all = new ArrayList<>();
            for (ReconCategory c : ReconCategory.values()) {
                all.addAll(r.findings(c));
            }
            assertThat(all).extracting(ReconFinding::detailKey).contains(FindingDetail.NO_REDIS_STATE, FindingDetail.MYSQL_AHEAD,
                    FindingDetail.REDIS_AHEAD, FindingDetail.NO_QUEUE_ENTRY, FindingDetail.NO_MYSQL_ROW, FindingDetail.QUEUE_ORDER_IS,
                    FindingDetail.SYNC_PENDING);
            for (ReconFinding f : all) {
                String words = Messages.format("recon.detail." + f.detailKey().name(), f.detailArgs().toArray());
                assertThat(words).as(f.detailKey().name()).isEqualTo(f.detail());
            }
            Messages.use(Languages.ZH_CN);
            ReconFinding ahead = r.findings(ReconCategory.STATE_MISMATCH).stream()
                    .filter(f -> f.orderId().equals("p-mysql-ahead")).findFirst().orElseThrow();
            assertThat(Messages.format("recon.detail." + ahead.detailKey().name(), ahead.detailArgs().toArray()))
                    .isEqualTo("MySQL 领先 1 个版本");
        }
    }
}

package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.service.order.OrderSummary;

/** How Redis and MySQL compare on one order, in the words of the order table's sync column. */
public final class AgreementWords {
    private AgreementWords() {
    }

    /**
     * @param s one row
     * @return "agree" when Redis and MySQL agree, else e.g. "Redis ahead", "MySQL ahead", "status differs",
     *     "missing in Redis", "missing in MySQL" (in the language in use)
     */
    public static String of(OrderSummary s) {
        if (!s.disagrees()) {
            return Messages.get("order.agree");
        }
        if (s.redisStatus() == null) {
            return Messages.get("order.missingInRedis");
        }
        if (s.mysqlStatus() == null) {
            return Messages.get("order.missingInMysql");
        }
        if (s.redisVersion() > s.mysqlVersion()) {
            return Messages.get("order.redisAhead");
        }
        if (s.mysqlVersion() > s.redisVersion()) {
            return Messages.get("order.mysqlAhead");
        }
        return Messages.get("order.statusDiffers");
    }
}

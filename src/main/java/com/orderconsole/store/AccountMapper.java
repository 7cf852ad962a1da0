package com.orderconsole.store;

import org.apache.ibatis.annotations.Select;

import java.util.List;
import java.util.Map;

/** MyBatis mapper for {@code console_account} (V39), which only the V39 procedures write. */
public interface AccountMapper {
    /** The logins, and every API client (revoked ones too: serve may have accepted an entry before the revocation). */
    @Select("SELECT login FROM console_account UNION ALL SELECT CONCAT('api:', name) FROM api_client")
    List<String> logins();

    /** Revoked API clients as rows of {@code api:<name>} and the revocation's time (ms). */
    @Select("SELECT CONCAT('api:', name) AS actor, revoked_at_ms AS revokedAtMs FROM api_client WHERE revoked_at_ms IS NOT NULL")
    List<Map<String, Object>> revoked();

    @Select("SELECT login FROM console_account WHERE follower = 1")
    List<String> followers();
}

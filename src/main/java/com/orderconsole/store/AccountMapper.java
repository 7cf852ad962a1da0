package com.orderconsole.store;

import org.apache.ibatis.annotations.Select;

import java.util.List;

/** MyBatis mapper for {@code console_account} (V39), which only the V39 procedures write. */
public interface AccountMapper {
    /** The logins, and every API client (revoked ones too: serve may have accepted an entry before the revocation). */
    @Select("SELECT login FROM console_account UNION ALL SELECT CONCAT('api:', name) FROM api_client")
    List<String> logins();

    @Select("SELECT login FROM console_account WHERE follower = 1")
    List<String> followers();
}

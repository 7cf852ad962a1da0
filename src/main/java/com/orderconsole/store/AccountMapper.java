package com.orderconsole.store;

import org.apache.ibatis.annotations.Select;

import java.util.List;

/** MyBatis mapper for {@code console_account} (V39), which only the V39 procedures write. */
public interface AccountMapper {
    @Select("SELECT login FROM console_account")
    List<String> logins();

    @Select("SELECT login FROM console_account WHERE follower = 1")
    List<String> followers();
}

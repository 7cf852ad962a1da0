package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

import java.util.List;
import java.util.Map;

/** MyBatis mapper for {@code console_account} (V39), which only the V39 procedures write. */
public interface AccountMapper {
    /**
     * The logins, every API client (revoked ones too: serve may have accepted an entry before the revocation) and every
     * person serve recorded (V49).
     */
    @Select("SELECT login FROM console_account UNION ALL SELECT CONCAT('api:', name) FROM api_client UNION ALL SELECT actor FROM sso_person")
    List<String> logins();

    /** The actor names of the people serve recorded (V49). */
    @Select("SELECT actor FROM sso_person")
    List<String> people();

    /** Where no account is checked (local servers): records a person unless the name is taken. */
    @Insert("INSERT IGNORE INTO sso_person (actor, issuer, subject, first_at_ms, recorded_by) VALUES (#{actor}, #{issuer}, "
            + "#{subject}, #{atMs}, 'local')")
    int insertPerson(@Param("actor") String actor, @Param("issuer") String issuer, @Param("subject") String subject,
                     @Param("atMs") long atMs);

    /** @return 1 when the name is recorded for exactly this issuer and subject */
    @Select("SELECT COUNT(*) FROM sso_person WHERE actor = #{actor} AND issuer = #{issuer} AND subject = #{subject}")
    int personIs(@Param("actor") String actor, @Param("issuer") String issuer, @Param("subject") String subject);

    /** Revoked API clients as rows of {@code api:<name>} and the revocation's time (ms). */
    @Select("SELECT CONCAT('api:', name) AS actor, revoked_at_ms AS revokedAtMs FROM api_client WHERE revoked_at_ms IS NOT NULL")
    List<Map<String, Object>> revoked();

    @Select("SELECT login FROM console_account WHERE follower = 1")
    List<String> followers();
}

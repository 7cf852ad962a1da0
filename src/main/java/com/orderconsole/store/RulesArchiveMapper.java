package com.orderconsole.store;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** MyBatis mapper for {@code transition_rules}: the durable copy of every rules version. */
public interface RulesArchiveMapper {
    /** Records a version; a version already recorded is left as it is. */
    @Insert("INSERT IGNORE INTO transition_rules (version, rules_json, set_by, set_at_ms) VALUES (#{v}, #{json}, #{by}, #{at})")
    int record(@Param("v") long version, @Param("json") String json, @Param("by") String setBy, @Param("at") long atMs);

    /** @return the JSON of the newest version, or null when none was ever recorded */
    @Select("SELECT rules_json FROM transition_rules ORDER BY version DESC LIMIT 1")
    String latest();

    /**
     * @return the JSON of every version set at or before {@code to}, from the newest one set at or before {@code from}
     *     on (all of them when none was set by then), oldest first
     */
    @Select("SELECT rules_json FROM transition_rules WHERE set_at_ms <= #{to} AND version >= "
            + "COALESCE((SELECT MAX(version) FROM transition_rules WHERE set_at_ms <= #{from}), 0) ORDER BY version")
    java.util.List<String> inForceBetween(@Param("from") long fromMs, @Param("to") long toMs);
}

-- role: admin
-- { chinook_artist(where: {artist_id: {_in: [1, 2]}}) { name
-- albums_aggregate(order_by: {album_id: asc}) { aggregate { count max { title } } nodes { title tracks_aggregate { aggregate { sum { milliseconds } avg { unit_price } } } } } } }
-- $0 = constant [1,2] :: bigquery.INT64[]
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_artist_1`.`name` AS `f0`, `_j_1`.`__v` AS `f1`) AS `__v`
        FROM `chinook.artist` AS `_artist_1` LEFT JOIN (
          SELECT `_n_2`.`__k0`, STRUCT(STRUCT(COUNT(*) AS `f0`, STRUCT(MAX(`_n_2`.`__c0`) AS `f0`) AS `f1`) AS `f0`, ARRAY_AGG(`_n_2`.`__n1`
              ORDER BY `_n_2`.`__rn`) AS `f1`) AS `__v`
          FROM (
            SELECT `_base_2`.*, ROW_NUMBER() OVER (PARTITION BY `_base_2`.`__k0`
              ORDER BY `_base_2`.`__o0` ASC NULLS LAST) AS `__rn`
            FROM (
              SELECT `_album_1`.`artist_id` AS `__k0`, `_album_1`.`title` AS `__c0`, STRUCT(`_album_1`.`title` AS `f0`, `_j_2`.`__v` AS `f1`) AS `__n1`, `_album_1`.`album_id` AS `__o0`
              FROM `chinook.album` AS `_album_1` LEFT JOIN (
                SELECT `_n_3`.`__k0`, STRUCT(STRUCT(STRUCT(SUM(`_n_3`.`__c0`) AS `f0`) AS `f0`, STRUCT(AVG(`_n_3`.`__c1`) AS `f0`) AS `f1`) AS `f0`) AS `__v`
                FROM (
                  SELECT `_base_3`.*, ROW_NUMBER() OVER (PARTITION BY `_base_3`.`__k0`) AS `__rn`
                  FROM (
                    SELECT `_track_1`.`album_id` AS `__k0`, `_track_1`.`milliseconds` AS `__c0`, `_track_1`.`unit_price` AS `__c1`
                    FROM `chinook.track` AS `_track_1`
                    WHERE TRUE) AS `_base_3`) AS `_n_3` GROUP BY `_n_3`.`__k0`) AS `_j_2` ON `_j_2`.`__k0` = `_album_1`.`album_id`
              WHERE TRUE) AS `_base_2`) AS `_n_2` GROUP BY `_n_2`.`__k0`) AS `_j_1` ON `_j_1`.`__k0` = `_artist_1`.`artist_id`
        WHERE TRUE AND (`_artist_1`.`artist_id` IN UNNEST(@p0))) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

-- role: admin
-- { chinook_track(distinct_on: [genre_id], order_by: [{genre_id: asc}, {milliseconds: desc}], limit: 4, offset: 1) { genre_id name }
-- chinook_artist(where: {artist_id: {_in: [1, 22]}}) { name albums(distinct_on: [artist_id], order_by: [{artist_id: asc}, {title: desc}]) { title } } }
-- $0 = constant 1 :: int8
-- $1 = constant 1 :: int8
-- $2 = constant 4 :: INT64
-- $3 = constant [1,22] :: bigquery.INT64[]
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER (ORDER BY `_base_1`.`__o0` ASC NULLS LAST, `_base_1`.`__o1` DESC NULLS FIRST) AS `__rn`
      FROM (
        SELECT `_firsts_1`.*
        FROM (
          SELECT `_all_1`.*, ROW_NUMBER() OVER (PARTITION BY `_all_1`.`__d0`
            ORDER BY `_all_1`.`__o0` ASC NULLS LAST, `_all_1`.`__o1` DESC NULLS FIRST) AS `__dn`
          FROM (
            SELECT STRUCT(`_track_1`.`genre_id` AS `f0`, `_track_1`.`name` AS `f1`) AS `__v`, `_track_1`.`genre_id` AS `__o0`, `_track_1`.`milliseconds` AS `__o1`, `_track_1`.`genre_id` AS `__d0`
            FROM `chinook.track` AS `_track_1`
            WHERE TRUE) AS `_all_1`) AS `_firsts_1`
        WHERE `_firsts_1`.`__dn` = 1) AS `_base_1`) AS `_n_1`
    WHERE `__rn` > CAST(@p0 AS INT64) AND `__rn` <= CAST(@p1 AS INT64) + CAST(@p2 AS INT64)) AS `_g_1`) AS `f0`, (
  SELECT `_g_2`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_2`.`__v`
      ORDER BY `_n_2`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_2`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_artist_1`.`name` AS `f0`, `_j_1`.`__v` AS `f1`) AS `__v`
        FROM `chinook.artist` AS `_artist_1` LEFT JOIN (
          SELECT `_n_3`.`__k0`, ARRAY_AGG(`_n_3`.`__v`
            ORDER BY `_n_3`.`__rn`) AS `__v`
          FROM (
            SELECT `_base_3`.*, ROW_NUMBER() OVER (PARTITION BY `_base_3`.`__k0`
              ORDER BY `_base_3`.`__o0` ASC NULLS LAST, `_base_3`.`__o1` DESC NULLS FIRST) AS `__rn`
            FROM (
              SELECT `_firsts_2`.*
              FROM (
                SELECT `_all_2`.*, ROW_NUMBER() OVER (PARTITION BY `_all_2`.`__k0`, `_all_2`.`__d0`
                  ORDER BY `_all_2`.`__o0` ASC NULLS LAST, `_all_2`.`__o1` DESC NULLS FIRST) AS `__dn`
                FROM (
                  SELECT `_album_1`.`artist_id` AS `__k0`, STRUCT(`_album_1`.`title` AS `f0`) AS `__v`, `_album_1`.`artist_id` AS `__o0`, `_album_1`.`title` AS `__o1`, `_album_1`.`artist_id` AS `__d0`
                  FROM `chinook.album` AS `_album_1`
                  WHERE TRUE) AS `_all_2`) AS `_firsts_2`
              WHERE `_firsts_2`.`__dn` = 1) AS `_base_3`) AS `_n_3` GROUP BY `_n_3`.`__k0`) AS `_j_1` ON `_j_1`.`__k0` = `_artist_1`.`artist_id`
        WHERE TRUE AND (`_artist_1`.`artist_id` IN UNNEST(@p3))) AS `_base_2`) AS `_n_2`) AS `_g_2`) AS `f1`;

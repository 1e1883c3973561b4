-- role: admin
-- query ($n: Int!) { chinook_album(where: {title: {_ilike: "%rock%"}}, order_by: {title: asc}, limit: $n, offset: 1) {
-- title artist { name } tracks(order_by: [{milliseconds: desc}, {track_id: asc}], limit: 3) { name genre { name } } } }
-- $0 = constant 1 :: INT64
-- $1 = constant 1 :: INT64
-- $2 = constant 3 :: INT64
-- $3 = constant "%rock%" :: text
-- $4 = constant 1 :: int8
-- $5 = constant 1 :: int8
-- $6 = variable $n :: INT64
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER (ORDER BY `_base_1`.`__o0` ASC NULLS LAST) AS `__rn`
      FROM (
        SELECT STRUCT(`_album_1`.`title` AS `f0`, `_j_1`.`__v` AS `f1`, `_j_2`.`__v` AS `f2`) AS `__v`, `_album_1`.`title` AS `__o0`
        FROM `chinook.album` AS `_album_1` LEFT JOIN (
          SELECT `_n_2`.`__k0`, `_n_2`.`__v`
          FROM (
            SELECT `_base_2`.*, ROW_NUMBER() OVER (PARTITION BY `_base_2`.`__k0`) AS `__rn`
            FROM (
              SELECT `_artist_1`.`artist_id` AS `__k0`, STRUCT(`_artist_1`.`name` AS `f0`) AS `__v`
              FROM `chinook.artist` AS `_artist_1`
              WHERE TRUE) AS `_base_2`) AS `_n_2`
          WHERE `__rn` <= CAST(@p0 AS INT64)) AS `_j_1` ON `_j_1`.`__k0` = `_album_1`.`artist_id` LEFT JOIN (
          SELECT `_n_3`.`__k0`, ARRAY_AGG(`_n_3`.`__v`
            ORDER BY `_n_3`.`__rn`) AS `__v`
          FROM (
            SELECT `_base_3`.*, ROW_NUMBER() OVER (PARTITION BY `_base_3`.`__k0`
              ORDER BY `_base_3`.`__o0` DESC NULLS FIRST, `_base_3`.`__o1` ASC NULLS LAST) AS `__rn`
            FROM (
              SELECT `_track_1`.`album_id` AS `__k0`, STRUCT(`_track_1`.`name` AS `f0`, `_j_3`.`__v` AS `f1`) AS `__v`, `_track_1`.`milliseconds` AS `__o0`, `_track_1`.`track_id` AS `__o1`
              FROM `chinook.track` AS `_track_1` LEFT JOIN (
                SELECT `_n_4`.`__k0`, `_n_4`.`__v`
                FROM (
                  SELECT `_base_4`.*, ROW_NUMBER() OVER (PARTITION BY `_base_4`.`__k0`) AS `__rn`
                  FROM (
                    SELECT `_genre_1`.`genre_id` AS `__k0`, STRUCT(`_genre_1`.`name` AS `f0`) AS `__v`
                    FROM `chinook.genre` AS `_genre_1`
                    WHERE TRUE) AS `_base_4`) AS `_n_4`
                WHERE `__rn` <= CAST(@p1 AS INT64)) AS `_j_3` ON `_j_3`.`__k0` = `_track_1`.`genre_id`
              WHERE TRUE) AS `_base_3`) AS `_n_3`
          WHERE `__rn` <= CAST(@p2 AS INT64) GROUP BY `_n_3`.`__k0`) AS `_j_2` ON `_j_2`.`__k0` = `_album_1`.`album_id`
        WHERE TRUE AND (LOWER(CAST(`_album_1`.`title` AS STRING)) LIKE LOWER(CAST(@p3 AS STRING)))) AS `_base_1`) AS `_n_1`
    WHERE `__rn` > CAST(@p4 AS INT64) AND `__rn` <= CAST(@p5 AS INT64) + CAST(@p6 AS INT64)) AS `_g_1`) AS `f0`;

-- role: admin
-- root field: chinook_album (select on chinook.album)
-- query: query { chinook_album { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.album`; filter: none (every row)
--   columns: album_id, title, artist_id; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_album_1`.`album_id` AS `f0`, `_album_1`.`title` AS `f1`, `_album_1`.`artist_id` AS `f2`) AS `__v`
        FROM `chinook.album` AS `_album_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

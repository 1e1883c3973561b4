-- role: admin
-- root field: chinook_playlist (select on chinook.playlist)
-- query: query { chinook_playlist { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.playlist`; filter: none (every row)
--   columns: playlist_id, name; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_playlist_1`.`playlist_id` AS `f0`, `_playlist_1`.`name` AS `f1`) AS `__v`
        FROM `chinook.playlist` AS `_playlist_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

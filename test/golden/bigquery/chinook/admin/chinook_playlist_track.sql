-- role: admin
-- root field: chinook_playlist_track (select on chinook.playlist_track)
-- query: query { chinook_playlist_track { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.playlist_track`; filter: none (every row)
--   columns: playlist_id, track_id; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_playlist_track_1`.`playlist_id` AS `f0`, `_playlist_track_1`.`track_id` AS `f1`) AS `__v`
        FROM `chinook.playlist_track` AS `_playlist_track_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

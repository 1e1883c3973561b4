-- role: admin
-- root field: chinook_playlist_track_aggregate (select_aggregate on chinook.playlist_track)
-- query: query { chinook_playlist_track_aggregate { aggregate { count } nodes { playlist_id track_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.playlist_track`; filter: none (every row)
--   columns: playlist_id, track_id; row limit: none; aggregations: yes
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT STRUCT(STRUCT(COUNT(*) AS `f0`) AS `f0`, ARRAY_AGG(`_n_1`.`__n1`
        ORDER BY `_n_1`.`__rn`) AS `f1`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_playlist_track_1`.`playlist_id` AS `f0`, `_playlist_track_1`.`track_id` AS `f1`) AS `__n1`
        FROM `chinook.playlist_track` AS `_playlist_track_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

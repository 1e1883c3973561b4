-- role: admin
-- root field: chinook_track_aggregate (select_aggregate on chinook.track)
-- query: query { chinook_track_aggregate { aggregate { count } nodes { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.track`; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price; row limit: none; aggregations: yes
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT STRUCT(STRUCT(COUNT(*) AS `f0`) AS `f0`, ARRAY_AGG(`_n_1`.`__n1`
        ORDER BY `_n_1`.`__rn`) AS `f1`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_track_1`.`track_id` AS `f0`, `_track_1`.`name` AS `f1`, `_track_1`.`album_id` AS `f2`, `_track_1`.`media_type_id` AS `f3`, `_track_1`.`genre_id` AS `f4`, `_track_1`.`composer` AS `f5`, `_track_1`.`milliseconds` AS `f6`, `_track_1`.`bytes` AS `f7`, `_track_1`.`unit_price` AS `f8`) AS `__n1`
        FROM `chinook.track` AS `_track_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

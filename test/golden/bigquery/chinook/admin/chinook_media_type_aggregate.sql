-- role: admin
-- root field: chinook_media_type_aggregate (select_aggregate on chinook.media_type)
-- query: query { chinook_media_type_aggregate { aggregate { count } nodes { media_type_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.media_type`; filter: none (every row)
--   columns: media_type_id, name; row limit: none; aggregations: yes
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT STRUCT(STRUCT(COUNT(*) AS `f0`) AS `f0`, ARRAY_AGG(`_n_1`.`__n1`
        ORDER BY `_n_1`.`__rn`) AS `f1`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_media_type_1`.`media_type_id` AS `f0`, `_media_type_1`.`name` AS `f1`) AS `__n1`
        FROM `chinook.media_type` AS `_media_type_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

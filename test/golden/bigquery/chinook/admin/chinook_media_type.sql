-- role: admin
-- root field: chinook_media_type (select on chinook.media_type)
-- query: query { chinook_media_type { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.media_type`; filter: none (every row)
--   columns: media_type_id, name; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_media_type_1`.`media_type_id` AS `f0`, `_media_type_1`.`name` AS `f1`) AS `__v`
        FROM `chinook.media_type` AS `_media_type_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

-- role: admin
-- root field: chinook_genre (select on chinook.genre)
-- query: query { chinook_genre { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.genre`; filter: none (every row)
--   columns: genre_id, name; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_genre_1`.`genre_id` AS `f0`, `_genre_1`.`name` AS `f1`) AS `__v`
        FROM `chinook.genre` AS `_genre_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;

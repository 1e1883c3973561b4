-- role: admin
-- root field: genre_aggregate (select_aggregate on dbo.genre)
-- query: query { genre_aggregate { aggregate { count } nodes { genre_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[genre]; filter: none (every row)
--   columns: genre_id, name; row limit: none; aggregations: yes
SELECT (
  SELECT JSON_QUERY((
      SELECT JSON_QUERY((
          SELECT COUNT(*) AS [count]
          FROM (
            SELECT 1 AS [__kiln_one]
            FROM [dbo].[genre] AS [_genre_1]
            WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
            SELECT [_genre_1].[genre_id] AS [genre_id], [_genre_1].[name] AS [name]
            FROM [dbo].[genre] AS [_genre_1]
            WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [genre_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

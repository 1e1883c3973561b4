-- role: admin
-- root field: genre (select on dbo.genre)
-- query: query { genre { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[genre]; filter: none (every row)
--   columns: genre_id, name; row limit: none
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_genre_1].[genre_id] AS [genre_id], [_genre_1].[name] AS [name]
        FROM [dbo].[genre] AS [_genre_1]
        WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [genre] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

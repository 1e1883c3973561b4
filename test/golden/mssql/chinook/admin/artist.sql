-- role: admin
-- root field: artist (select on dbo.artist)
-- query: query { artist { artist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[artist]; filter: none (every row)
--   columns: artist_id, name; row limit: none
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_artist_1].[artist_id] AS [artist_id], [_artist_1].[name] AS [name]
        FROM [dbo].[artist] AS [_artist_1]
        WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [artist] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

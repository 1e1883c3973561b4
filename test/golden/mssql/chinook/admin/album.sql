-- role: admin
-- root field: album (select on dbo.album)
-- query: query { album { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[album]; filter: none (every row)
--   columns: album_id, title, artist_id; row limit: none
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_album_1].[album_id] AS [album_id], [_album_1].[title] AS [title], [_album_1].[artist_id] AS [artist_id]
        FROM [dbo].[album] AS [_album_1]
        WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [album] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

-- role: admin
-- root field: playlist (select on dbo.playlist)
-- query: query { playlist { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[playlist]; filter: none (every row)
--   columns: playlist_id, name; row limit: none
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_playlist_1].[playlist_id] AS [playlist_id], [_playlist_1].[name] AS [name]
        FROM [dbo].[playlist] AS [_playlist_1]
        WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [playlist] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

-- role: admin
-- root field: playlist_by_pk (select_by_pk on dbo.playlist)
-- query: query ($playlist_id: Int!) { playlist_by_pk(playlist_id: $playlist_id) { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[playlist]; filter: none (every row)
--   columns: playlist_id, name
-- @p1 = variable $playlist_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_playlist_1].[playlist_id] AS [playlist_id], [_playlist_1].[name] AS [name]
      FROM [dbo].[playlist] AS [_playlist_1]
      WHERE ([_playlist_1].[playlist_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [playlist_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

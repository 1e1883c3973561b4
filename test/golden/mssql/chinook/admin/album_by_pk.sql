-- role: admin
-- root field: album_by_pk (select_by_pk on dbo.album)
-- query: query ($album_id: Int!) { album_by_pk(album_id: $album_id) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[album]; filter: none (every row)
--   columns: album_id, title, artist_id
-- @p1 = variable $album_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_album_1].[album_id] AS [album_id], [_album_1].[title] AS [title], [_album_1].[artist_id] AS [artist_id]
      FROM [dbo].[album] AS [_album_1]
      WHERE ([_album_1].[album_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [album_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

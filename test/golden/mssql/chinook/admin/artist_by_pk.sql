-- role: admin
-- root field: artist_by_pk (select_by_pk on dbo.artist)
-- query: query ($artist_id: Int!) { artist_by_pk(artist_id: $artist_id) { artist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[artist]; filter: none (every row)
--   columns: artist_id, name
-- @p1 = variable $artist_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_artist_1].[artist_id] AS [artist_id], [_artist_1].[name] AS [name]
      FROM [dbo].[artist] AS [_artist_1]
      WHERE ([_artist_1].[artist_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [artist_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

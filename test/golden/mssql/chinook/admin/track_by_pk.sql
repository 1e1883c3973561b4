-- role: admin
-- root field: track_by_pk (select_by_pk on dbo.track)
-- query: query ($track_id: Int!) { track_by_pk(track_id: $track_id) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[track]; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- @p1 = variable $track_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_track_1].[track_id] AS [track_id], [_track_1].[name] AS [name], [_track_1].[album_id] AS [album_id], [_track_1].[media_type_id] AS [media_type_id], [_track_1].[genre_id] AS [genre_id], [_track_1].[composer] AS [composer], [_track_1].[milliseconds] AS [milliseconds], [_track_1].[bytes] AS [bytes], [_track_1].[unit_price] AS [unit_price]
      FROM [dbo].[track] AS [_track_1]
      WHERE ([_track_1].[track_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [track_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

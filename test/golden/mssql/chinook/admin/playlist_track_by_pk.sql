-- role: admin
-- root field: playlist_track_by_pk (select_by_pk on dbo.playlist_track)
-- query: query ($playlist_id: Int!, $track_id: Int!) { playlist_track_by_pk(playlist_id: $playlist_id, track_id: $track_id) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[playlist_track]; filter: none (every row)
--   columns: playlist_id, track_id
-- @p1 = variable $playlist_id :: int
-- @p2 = variable $track_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_playlist_track_1].[playlist_id] AS [playlist_id], [_playlist_track_1].[track_id] AS [track_id]
      FROM [dbo].[playlist_track] AS [_playlist_track_1]
      WHERE ([_playlist_track_1].[playlist_id] = @p1) AND ([_playlist_track_1].[track_id] = @p2) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [playlist_track_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

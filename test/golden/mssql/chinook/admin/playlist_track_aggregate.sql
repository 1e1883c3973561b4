-- role: admin
-- root field: playlist_track_aggregate (select_aggregate on dbo.playlist_track)
-- query: query { playlist_track_aggregate { aggregate { count } nodes { playlist_id track_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[playlist_track]; filter: none (every row)
--   columns: playlist_id, track_id; row limit: none; aggregations: yes
SELECT (
  SELECT JSON_QUERY((
      SELECT JSON_QUERY((
          SELECT COUNT(*) AS [count]
          FROM (
            SELECT 1 AS [__kiln_one]
            FROM [dbo].[playlist_track] AS [_playlist_track_1]
            WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
            SELECT [_playlist_track_1].[playlist_id] AS [playlist_id], [_playlist_track_1].[track_id] AS [track_id]
            FROM [dbo].[playlist_track] AS [_playlist_track_1]
            WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [playlist_track_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

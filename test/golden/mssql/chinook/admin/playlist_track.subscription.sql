-- role: admin
-- subscription: playlist_track (live query, select on dbo.playlist_track)
-- query: subscription { playlist_track { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[playlist_track]; filter: none (every row)
--   columns: playlist_id, track_id; row limit: none
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY(ISNULL((
          SELECT [_playlist_track_1].[playlist_id] AS [playlist_id], [_playlist_track_1].[track_id] AS [track_id]
          FROM [dbo].[playlist_track] AS [_playlist_track_1]
          WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [playlist_track] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];

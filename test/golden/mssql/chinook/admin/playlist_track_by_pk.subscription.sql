-- role: admin
-- subscription: playlist_track_by_pk (live query, select_by_pk on dbo.playlist_track)
-- query: subscription ($playlist_id: Int!, $track_id: Int!) { playlist_track_by_pk(playlist_id: $playlist_id, track_id: $track_id) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[playlist_track]; filter: none (every row)
--   columns: playlist_id, track_id
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = variable $playlist_id, one per cohort: a JSON array of text (read as int)
-- @p3 = variable $track_id, one per cohort: a JSON array of text (read as int)
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT TOP (1) [_playlist_track_1].[playlist_id] AS [playlist_id], [_playlist_track_1].[track_id] AS [track_id]
        FROM [dbo].[playlist_track] AS [_playlist_track_1]
        WHERE ([_playlist_track_1].[playlist_id] = [_subs].[p1]) AND ([_playlist_track_1].[track_id] = [_subs].[p2]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [playlist_track_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1], (
    SELECT [value]
    FROM OPENJSON(@p3)
    WHERE [key] = [_c].[key]) AS [p2]) AS [_subs];

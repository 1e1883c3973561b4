-- role: admin
-- subscription: track (live query, select on dbo.track)
-- query: subscription { track { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[track]; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price; row limit: none
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY(ISNULL((
          SELECT [_track_1].[track_id] AS [track_id], [_track_1].[name] AS [name], [_track_1].[album_id] AS [album_id], [_track_1].[media_type_id] AS [media_type_id], [_track_1].[genre_id] AS [genre_id], [_track_1].[composer] AS [composer], [_track_1].[milliseconds] AS [milliseconds], [_track_1].[bytes] AS [bytes], [_track_1].[unit_price] AS [unit_price]
          FROM [dbo].[track] AS [_track_1]
          WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [track] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];

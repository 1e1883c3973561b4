-- role: admin
-- subscription: track_by_pk (live query, select_by_pk on dbo.track)
-- query: subscription ($track_id: Int!) { track_by_pk(track_id: $track_id) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[track]; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = variable $track_id, one per cohort: a JSON array of text (read as int)
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT TOP (1) [_track_1].[track_id] AS [track_id], [_track_1].[name] AS [name], [_track_1].[album_id] AS [album_id], [_track_1].[media_type_id] AS [media_type_id], [_track_1].[genre_id] AS [genre_id], [_track_1].[composer] AS [composer], [_track_1].[milliseconds] AS [milliseconds], [_track_1].[bytes] AS [bytes], [_track_1].[unit_price] AS [unit_price]
        FROM [dbo].[track] AS [_track_1]
        WHERE ([_track_1].[track_id] = [_subs].[p1]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [track_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1]) AS [_subs];

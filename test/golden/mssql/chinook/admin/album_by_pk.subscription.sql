-- role: admin
-- subscription: album_by_pk (live query, select_by_pk on dbo.album)
-- query: subscription ($album_id: Int!) { album_by_pk(album_id: $album_id) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[album]; filter: none (every row)
--   columns: album_id, title, artist_id
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = variable $album_id, one per cohort: a JSON array of text (read as int)
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT TOP (1) [_album_1].[album_id] AS [album_id], [_album_1].[title] AS [title], [_album_1].[artist_id] AS [artist_id]
        FROM [dbo].[album] AS [_album_1]
        WHERE ([_album_1].[album_id] = [_subs].[p1]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [album_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1]) AS [_subs];

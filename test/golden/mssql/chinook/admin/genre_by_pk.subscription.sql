-- role: admin
-- subscription: genre_by_pk (live query, select_by_pk on dbo.genre)
-- query: subscription ($genre_id: Int!) { genre_by_pk(genre_id: $genre_id) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[genre]; filter: none (every row)
--   columns: genre_id, name
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = variable $genre_id, one per cohort: a JSON array of text (read as int)
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT TOP (1) [_genre_1].[genre_id] AS [genre_id], [_genre_1].[name] AS [name]
        FROM [dbo].[genre] AS [_genre_1]
        WHERE ([_genre_1].[genre_id] = [_subs].[p1]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [genre_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1]) AS [_subs];

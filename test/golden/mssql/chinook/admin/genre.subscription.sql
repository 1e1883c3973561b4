-- role: admin
-- subscription: genre (live query, select on dbo.genre)
-- query: subscription { genre { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[genre]; filter: none (every row)
--   columns: genre_id, name; row limit: none
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY(ISNULL((
          SELECT [_genre_1].[genre_id] AS [genre_id], [_genre_1].[name] AS [name]
          FROM [dbo].[genre] AS [_genre_1]
          WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [genre] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];

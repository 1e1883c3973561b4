-- role: admin
-- subscription: playlist_aggregate (live query, select_aggregate on dbo.playlist)
-- query: subscription { playlist_aggregate { aggregate { count } nodes { playlist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[playlist]; filter: none (every row)
--   columns: playlist_id, name; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT JSON_QUERY((
            SELECT COUNT(*) AS [count]
            FROM (
              SELECT 1 AS [__kiln_one]
              FROM [dbo].[playlist] AS [_playlist_1]
              WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
              SELECT [_playlist_1].[playlist_id] AS [playlist_id], [_playlist_1].[name] AS [name]
              FROM [dbo].[playlist] AS [_playlist_1]
              WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [playlist_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];

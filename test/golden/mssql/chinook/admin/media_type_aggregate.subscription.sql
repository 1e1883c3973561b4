-- role: admin
-- subscription: media_type_aggregate (live query, select_aggregate on dbo.media_type)
-- query: subscription { media_type_aggregate { aggregate { count } nodes { media_type_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[media_type]; filter: none (every row)
--   columns: media_type_id, name; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT JSON_QUERY((
            SELECT COUNT(*) AS [count]
            FROM (
              SELECT 1 AS [__kiln_one]
              FROM [dbo].[media_type] AS [_media_type_1]
              WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
              SELECT [_media_type_1].[media_type_id] AS [media_type_id], [_media_type_1].[name] AS [name]
              FROM [dbo].[media_type] AS [_media_type_1]
              WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [media_type_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];

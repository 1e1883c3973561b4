-- role: admin
-- subscription: media_type_by_pk (live query, select_by_pk on dbo.media_type)
-- query: subscription ($media_type_id: Int!) { media_type_by_pk(media_type_id: $media_type_id) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[media_type]; filter: none (every row)
--   columns: media_type_id, name
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = variable $media_type_id, one per cohort: a JSON array of text (read as int)
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT TOP (1) [_media_type_1].[media_type_id] AS [media_type_id], [_media_type_1].[name] AS [name]
        FROM [dbo].[media_type] AS [_media_type_1]
        WHERE ([_media_type_1].[media_type_id] = [_subs].[p1]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [media_type_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1]) AS [_subs];

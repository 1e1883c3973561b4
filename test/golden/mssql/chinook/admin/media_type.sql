-- role: admin
-- root field: media_type (select on dbo.media_type)
-- query: query { media_type { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[media_type]; filter: none (every row)
--   columns: media_type_id, name; row limit: none
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_media_type_1].[media_type_id] AS [media_type_id], [_media_type_1].[name] AS [name]
        FROM [dbo].[media_type] AS [_media_type_1]
        WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [media_type] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

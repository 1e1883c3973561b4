-- role: admin
-- root field: media_type_by_pk (select_by_pk on dbo.media_type)
-- query: query ($media_type_id: Int!) { media_type_by_pk(media_type_id: $media_type_id) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[media_type]; filter: none (every row)
--   columns: media_type_id, name
-- @p1 = variable $media_type_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_media_type_1].[media_type_id] AS [media_type_id], [_media_type_1].[name] AS [name]
      FROM [dbo].[media_type] AS [_media_type_1]
      WHERE ([_media_type_1].[media_type_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [media_type_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

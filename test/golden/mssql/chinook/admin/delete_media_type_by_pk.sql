-- role: admin
-- root field: delete_media_type_by_pk (delete_by_pk on dbo.media_type)
-- query: mutation ($pk_media_type_id: Int!) { delete_media_type_by_pk(media_type_id: $pk_media_type_id) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[media_type]; filter: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $pk_media_type_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[media_type]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[media_type]
WHERE 1 = 0;
DELETE [_media_type_1] OUTPUT DELETED.* INTO [#kiln_w1]
FROM [dbo].[media_type] AS [_media_type_1]
WHERE ([_media_type_1].[media_type_id] = @p1);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_media_type_2].[media_type_id] AS [media_type_id], [_media_type_2].[name] AS [name]
    FROM (
      SELECT [media_type_id], [name]
      FROM [#kiln_w1]) AS [_media_type_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

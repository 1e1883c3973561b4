-- role: admin
-- root field: update_media_type_many (update_many on dbo.media_type)
-- query: mutation ($media_type_id: Int, $name: String) { update_media_type_many(updates: [{where: {}, _set: {media_type_id: $media_type_id, name: $name}}]) { affected_rows returning { media_type_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[media_type]; columns: media_type_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $media_type_id :: int
-- @p2 = variable $name :: nvarchar(120)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[media_type]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[media_type]
WHERE 1 = 0;
UPDATE [_media_type_1] SET [media_type_id] = @p1, [name] = @p2 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[media_type] AS [_media_type_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_media_type_2].[media_type_id] AS [media_type_id], [_media_type_2].[name] AS [name]
          FROM (
            SELECT [media_type_id], [name]
            FROM [#kiln_w1]) AS [_media_type_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

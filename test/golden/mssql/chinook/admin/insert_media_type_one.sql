-- role: admin
-- root field: insert_media_type_one (insert_one on dbo.media_type)
-- query: mutation ($media_type_id: Int, $name: String) { insert_media_type_one(object: {media_type_id: $media_type_id, name: $name}) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: [dbo].[media_type]; columns: media_type_id, name
--   check: none (every row)
--   on conflict: update columns: media_type_id, name; filter: none (every row); check: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $media_type_id :: int
-- @p2 = variable $name :: nvarchar(120)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SET IDENTITY_INSERT [dbo].[media_type] ON;
SELECT * INTO [#kiln_w1]
FROM [dbo].[media_type]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[media_type]
WHERE 1 = 0;
INSERT INTO [dbo].[media_type] ([media_type_id], [name]) OUTPUT INSERTED.* INTO [#kiln_w1] VALUES (@p1, @p2);
SET IDENTITY_INSERT [dbo].[media_type] OFF;
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_media_type_1].[media_type_id] AS [media_type_id], [_media_type_1].[name] AS [name]
    FROM (
      SELECT [media_type_id], [name]
      FROM [#kiln_w1]) AS [_media_type_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

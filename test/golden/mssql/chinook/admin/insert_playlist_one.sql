-- role: admin
-- root field: insert_playlist_one (insert_one on dbo.playlist)
-- query: mutation ($playlist_id: Int, $name: String) { insert_playlist_one(object: {playlist_id: $playlist_id, name: $name}) { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: [dbo].[playlist]; columns: playlist_id, name
--   check: none (every row)
--   on conflict: update columns: playlist_id, name; filter: none (every row); check: none (every row)
--   returning columns: playlist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $playlist_id :: int
-- @p2 = variable $name :: nvarchar(120)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SET IDENTITY_INSERT [dbo].[playlist] ON;
SELECT * INTO [#kiln_w1]
FROM [dbo].[playlist]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[playlist]
WHERE 1 = 0;
INSERT INTO [dbo].[playlist] ([playlist_id], [name]) OUTPUT INSERTED.* INTO [#kiln_w1] VALUES (@p1, @p2);
SET IDENTITY_INSERT [dbo].[playlist] OFF;
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_playlist_1].[playlist_id] AS [playlist_id], [_playlist_1].[name] AS [name]
    FROM (
      SELECT [playlist_id], [name]
      FROM [#kiln_w1]) AS [_playlist_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: insert_album_one (insert_one on dbo.album)
-- query: mutation ($album_id: Int, $title: String, $artist_id: Int) { insert_album_one(object: {album_id: $album_id, title: $title, artist_id: $artist_id}) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: [dbo].[album]; columns: album_id, title, artist_id
--   check: none (every row)
--   on conflict: update columns: album_id, title, artist_id; filter: none (every row); check: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $album_id :: int
-- @p2 = variable $title :: nvarchar(160)
-- @p3 = variable $artist_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SET IDENTITY_INSERT [dbo].[album] ON;
SELECT * INTO [#kiln_w1]
FROM [dbo].[album]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[album]
WHERE 1 = 0;
INSERT INTO [dbo].[album] ([album_id], [title], [artist_id]) OUTPUT INSERTED.* INTO [#kiln_w1] VALUES (@p1, @p2, @p3);
SET IDENTITY_INSERT [dbo].[album] OFF;
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_album_1].[album_id] AS [album_id], [_album_1].[title] AS [title], [_album_1].[artist_id] AS [artist_id]
    FROM (
      SELECT [album_id], [title], [artist_id]
      FROM [#kiln_w1]) AS [_album_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: insert_genre_one (insert_one on dbo.genre)
-- query: mutation ($genre_id: Int, $name: String) { insert_genre_one(object: {genre_id: $genre_id, name: $name}) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: [dbo].[genre]; columns: genre_id, name
--   check: none (every row)
--   on conflict: update columns: genre_id, name; filter: none (every row); check: none (every row)
--   returning columns: genre_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $genre_id :: int
-- @p2 = variable $name :: nvarchar(120)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SET IDENTITY_INSERT [dbo].[genre] ON;
SELECT * INTO [#kiln_w1]
FROM [dbo].[genre]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[genre]
WHERE 1 = 0;
INSERT INTO [dbo].[genre] ([genre_id], [name]) OUTPUT INSERTED.* INTO [#kiln_w1] VALUES (@p1, @p2);
SET IDENTITY_INSERT [dbo].[genre] OFF;
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_genre_1].[genre_id] AS [genre_id], [_genre_1].[name] AS [name]
    FROM (
      SELECT [genre_id], [name]
      FROM [#kiln_w1]) AS [_genre_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: insert_track (insert on dbo.track)
-- query: mutation ($track_id: Int, $name: String, $album_id: Int, $media_type_id: Int, $genre_id: Int, $composer: String, $milliseconds: Int, $bytes: Int, $unit_price: numeric) { insert_track(objects: [{track_id: $track_id, name: $name, album_id: $album_id, media_type_id: $media_type_id, genre_id: $genre_id, composer: $composer, milliseconds: $milliseconds, bytes: $bytes, unit_price: $unit_price}]) { affected_rows returning { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: [dbo].[track]; columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
--   check: none (every row)
--   on conflict: update columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price; filter: none (every row); check: none (every row)
--   returning columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $track_id :: int
-- @p2 = variable $name :: nvarchar(200)
-- @p3 = variable $album_id :: int
-- @p4 = variable $media_type_id :: int
-- @p5 = variable $genre_id :: int
-- @p6 = variable $composer :: nvarchar(220)
-- @p7 = variable $milliseconds :: int
-- @p8 = variable $bytes :: int
-- @p9 = variable $unit_price :: numeric(10,2)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SET IDENTITY_INSERT [dbo].[track] ON;
SELECT * INTO [#kiln_w1]
FROM [dbo].[track]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[track]
WHERE 1 = 0;
INSERT INTO [dbo].[track] ([track_id], [name], [album_id], [media_type_id], [genre_id], [composer], [milliseconds], [bytes], [unit_price]) OUTPUT INSERTED.* INTO [#kiln_w1] VALUES (@p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9);
SET IDENTITY_INSERT [dbo].[track] OFF;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_track_1].[track_id] AS [track_id], [_track_1].[name] AS [name], [_track_1].[album_id] AS [album_id], [_track_1].[media_type_id] AS [media_type_id], [_track_1].[genre_id] AS [genre_id], [_track_1].[composer] AS [composer], [_track_1].[milliseconds] AS [milliseconds], [_track_1].[bytes] AS [bytes], [_track_1].[unit_price] AS [unit_price]
          FROM (
            SELECT [track_id], [name], [album_id], [media_type_id], [genre_id], [composer], [milliseconds], [bytes], [unit_price]
            FROM [#kiln_w1]) AS [_track_1] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: update_track_by_pk (update_by_pk on dbo.track)
-- query: mutation ($pk_track_id: Int!, $track_id: Int, $name: String, $album_id: Int, $media_type_id: Int, $genre_id: Int, $composer: String, $milliseconds: Int, $bytes: Int, $unit_price: numeric) { update_track_by_pk(pk_columns: {track_id: $pk_track_id}, _set: {track_id: $track_id, name: $name, album_id: $album_id, media_type_id: $media_type_id, genre_id: $genre_id, composer: $composer, milliseconds: $milliseconds, bytes: $bytes, unit_price: $unit_price}) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[track]; columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
--   filter: none (every row); check: none (every row)
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
-- @p10 = variable $pk_track_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[track]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[track]
WHERE 1 = 0;
UPDATE [_track_1] SET [track_id] = @p1, [name] = @p2, [album_id] = @p3, [media_type_id] = @p4, [genre_id] = @p5, [composer] = @p6, [milliseconds] = @p7, [bytes] = @p8, [unit_price] = @p9 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[track] AS [_track_1]
WHERE ([_track_1].[track_id] = @p10);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_track_2].[track_id] AS [track_id], [_track_2].[name] AS [name], [_track_2].[album_id] AS [album_id], [_track_2].[media_type_id] AS [media_type_id], [_track_2].[genre_id] AS [genre_id], [_track_2].[composer] AS [composer], [_track_2].[milliseconds] AS [milliseconds], [_track_2].[bytes] AS [bytes], [_track_2].[unit_price] AS [unit_price]
    FROM (
      SELECT [track_id], [name], [album_id], [media_type_id], [genre_id], [composer], [milliseconds], [bytes], [unit_price]
      FROM [#kiln_w1]) AS [_track_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: delete_track_by_pk (delete_by_pk on dbo.track)
-- query: mutation ($pk_track_id: Int!) { delete_track_by_pk(track_id: $pk_track_id) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[track]; filter: none (every row)
--   returning columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $pk_track_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[track]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[track]
WHERE 1 = 0;
DELETE [_track_1] OUTPUT DELETED.* INTO [#kiln_w1]
FROM [dbo].[track] AS [_track_1]
WHERE ([_track_1].[track_id] = @p1);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_track_2].[track_id] AS [track_id], [_track_2].[name] AS [name], [_track_2].[album_id] AS [album_id], [_track_2].[media_type_id] AS [media_type_id], [_track_2].[genre_id] AS [genre_id], [_track_2].[composer] AS [composer], [_track_2].[milliseconds] AS [milliseconds], [_track_2].[bytes] AS [bytes], [_track_2].[unit_price] AS [unit_price]
    FROM (
      SELECT [track_id], [name], [album_id], [media_type_id], [genre_id], [composer], [milliseconds], [bytes], [unit_price]
      FROM [#kiln_w1]) AS [_track_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

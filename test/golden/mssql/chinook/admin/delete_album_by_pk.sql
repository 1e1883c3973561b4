-- role: admin
-- root field: delete_album_by_pk (delete_by_pk on dbo.album)
-- query: mutation ($pk_album_id: Int!) { delete_album_by_pk(album_id: $pk_album_id) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[album]; filter: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $pk_album_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[album]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[album]
WHERE 1 = 0;
DELETE [_album_1] OUTPUT DELETED.* INTO [#kiln_w1]
FROM [dbo].[album] AS [_album_1]
WHERE ([_album_1].[album_id] = @p1);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_album_2].[album_id] AS [album_id], [_album_2].[title] AS [title], [_album_2].[artist_id] AS [artist_id]
    FROM (
      SELECT [album_id], [title], [artist_id]
      FROM [#kiln_w1]) AS [_album_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

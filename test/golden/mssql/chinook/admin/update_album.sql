-- role: admin
-- root field: update_album (update on dbo.album)
-- query: mutation ($album_id: Int, $title: String, $artist_id: Int) { update_album(where: {}, _set: {album_id: $album_id, title: $title, artist_id: $artist_id}) { affected_rows returning { album_id title artist_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[album]; columns: album_id, title, artist_id
--   filter: none (every row); check: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $album_id :: int
-- @p2 = variable $title :: nvarchar(160)
-- @p3 = variable $artist_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[album]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[album]
WHERE 1 = 0;
UPDATE [_album_1] SET [album_id] = @p1, [title] = @p2, [artist_id] = @p3 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[album] AS [_album_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_album_2].[album_id] AS [album_id], [_album_2].[title] AS [title], [_album_2].[artist_id] AS [artist_id]
          FROM (
            SELECT [album_id], [title], [artist_id]
            FROM [#kiln_w1]) AS [_album_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: delete_album (delete on dbo.album)
-- query: mutation { delete_album(where: {}) { affected_rows returning { album_id title artist_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[album]; filter: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[album]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[album]
WHERE 1 = 0;
DELETE [_album_1] OUTPUT DELETED.* INTO [#kiln_w1]
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

-- role: admin
-- root field: delete_playlist_by_pk (delete_by_pk on dbo.playlist)
-- query: mutation ($pk_playlist_id: Int!) { delete_playlist_by_pk(playlist_id: $pk_playlist_id) { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[playlist]; filter: none (every row)
--   returning columns: playlist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $pk_playlist_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[playlist]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[playlist]
WHERE 1 = 0;
DELETE [_playlist_1] OUTPUT DELETED.* INTO [#kiln_w1]
FROM [dbo].[playlist] AS [_playlist_1]
WHERE ([_playlist_1].[playlist_id] = @p1);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_playlist_2].[playlist_id] AS [playlist_id], [_playlist_2].[name] AS [name]
    FROM (
      SELECT [playlist_id], [name]
      FROM [#kiln_w1]) AS [_playlist_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

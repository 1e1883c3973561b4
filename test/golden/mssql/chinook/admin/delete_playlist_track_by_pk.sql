-- role: admin
-- root field: delete_playlist_track_by_pk (delete_by_pk on dbo.playlist_track)
-- query: mutation ($pk_playlist_id: Int!, $pk_track_id: Int!) { delete_playlist_track_by_pk(playlist_id: $pk_playlist_id, track_id: $pk_track_id) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[playlist_track]; filter: none (every row)
--   returning columns: playlist_id, track_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $pk_playlist_id :: int
-- @p2 = variable $pk_track_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[playlist_track]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[playlist_track]
WHERE 1 = 0;
DELETE [_playlist_track_1] OUTPUT DELETED.* INTO [#kiln_w1]
FROM [dbo].[playlist_track] AS [_playlist_track_1]
WHERE (([_playlist_track_1].[playlist_id] = @p1) AND ([_playlist_track_1].[track_id] = @p2));
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_playlist_track_2].[playlist_id] AS [playlist_id], [_playlist_track_2].[track_id] AS [track_id]
    FROM (
      SELECT [playlist_id], [track_id]
      FROM [#kiln_w1]) AS [_playlist_track_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

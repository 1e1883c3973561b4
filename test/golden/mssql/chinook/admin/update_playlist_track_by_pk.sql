-- role: admin
-- root field: update_playlist_track_by_pk (update_by_pk on dbo.playlist_track)
-- query: mutation ($pk_playlist_id: Int!, $pk_track_id: Int!, $playlist_id: Int, $track_id: Int) { update_playlist_track_by_pk(pk_columns: {playlist_id: $pk_playlist_id, track_id: $pk_track_id}, _set: {playlist_id: $playlist_id, track_id: $track_id}) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[playlist_track]; columns: playlist_id, track_id
--   filter: none (every row); check: none (every row)
--   returning columns: playlist_id, track_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $playlist_id :: int
-- @p2 = variable $track_id :: int
-- @p3 = variable $pk_playlist_id :: int
-- @p4 = variable $pk_track_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[playlist_track]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[playlist_track]
WHERE 1 = 0;
UPDATE [_playlist_track_1] SET [playlist_id] = @p1, [track_id] = @p2 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[playlist_track] AS [_playlist_track_1]
WHERE (([_playlist_track_1].[playlist_id] = @p3) AND ([_playlist_track_1].[track_id] = @p4));
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_playlist_track_2].[playlist_id] AS [playlist_id], [_playlist_track_2].[track_id] AS [track_id]
    FROM (
      SELECT [playlist_id], [track_id]
      FROM [#kiln_w1]) AS [_playlist_track_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: update_playlist_track (update on dbo.playlist_track)
-- query: mutation ($playlist_id: Int, $track_id: Int) { update_playlist_track(where: {}, _set: {playlist_id: $playlist_id, track_id: $track_id}) { affected_rows returning { playlist_id track_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[playlist_track]; columns: playlist_id, track_id
--   filter: none (every row); check: none (every row)
--   returning columns: playlist_id, track_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $playlist_id :: int
-- @p2 = variable $track_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[playlist_track]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[playlist_track]
WHERE 1 = 0;
UPDATE [_playlist_track_1] SET [playlist_id] = @p1, [track_id] = @p2 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[playlist_track] AS [_playlist_track_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_playlist_track_2].[playlist_id] AS [playlist_id], [_playlist_track_2].[track_id] AS [track_id]
          FROM (
            SELECT [playlist_id], [track_id]
            FROM [#kiln_w1]) AS [_playlist_track_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

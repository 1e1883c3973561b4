-- role: admin
-- root field: update_playlist_many (update_many on dbo.playlist)
-- query: mutation ($playlist_id: Int, $name: String) { update_playlist_many(updates: [{where: {}, _set: {playlist_id: $playlist_id, name: $name}}]) { affected_rows returning { playlist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[playlist]; columns: playlist_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: playlist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $playlist_id :: int
-- @p2 = variable $name :: nvarchar(120)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[playlist]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[playlist]
WHERE 1 = 0;
UPDATE [_playlist_1] SET [playlist_id] = @p1, [name] = @p2 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[playlist] AS [_playlist_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_playlist_2].[playlist_id] AS [playlist_id], [_playlist_2].[name] AS [name]
          FROM (
            SELECT [playlist_id], [name]
            FROM [#kiln_w1]) AS [_playlist_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

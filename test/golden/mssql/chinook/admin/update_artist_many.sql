-- role: admin
-- root field: update_artist_many (update_many on dbo.artist)
-- query: mutation ($artist_id: Int, $name: String) { update_artist_many(updates: [{where: {}, _set: {artist_id: $artist_id, name: $name}}]) { affected_rows returning { artist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[artist]; columns: artist_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: artist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $artist_id :: int
-- @p2 = variable $name :: nvarchar(120)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[artist]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[artist]
WHERE 1 = 0;
UPDATE [_artist_1] SET [artist_id] = @p1, [name] = @p2 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[artist] AS [_artist_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_artist_2].[artist_id] AS [artist_id], [_artist_2].[name] AS [name]
          FROM (
            SELECT [artist_id], [name]
            FROM [#kiln_w1]) AS [_artist_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

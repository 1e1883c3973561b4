-- role: admin
-- root field: delete_genre (delete on dbo.genre)
-- query: mutation { delete_genre(where: {}) { affected_rows returning { genre_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[genre]; filter: none (every row)
--   returning columns: genre_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[genre]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[genre]
WHERE 1 = 0;
DELETE [_genre_1] OUTPUT DELETED.* INTO [#kiln_w1]
FROM [dbo].[genre] AS [_genre_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_genre_2].[genre_id] AS [genre_id], [_genre_2].[name] AS [name]
          FROM (
            SELECT [genre_id], [name]
            FROM [#kiln_w1]) AS [_genre_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

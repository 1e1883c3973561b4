-- role: admin
-- root field: update_genre_by_pk (update_by_pk on dbo.genre)
-- query: mutation ($pk_genre_id: Int!, $genre_id: Int, $name: String) { update_genre_by_pk(pk_columns: {genre_id: $pk_genre_id}, _set: {genre_id: $genre_id, name: $name}) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[genre]; columns: genre_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: genre_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $genre_id :: int
-- @p2 = variable $name :: nvarchar(120)
-- @p3 = variable $pk_genre_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[genre]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[genre]
WHERE 1 = 0;
UPDATE [_genre_1] SET [genre_id] = @p1, [name] = @p2 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[genre] AS [_genre_1]
WHERE ([_genre_1].[genre_id] = @p3);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_genre_2].[genre_id] AS [genre_id], [_genre_2].[name] AS [name]
    FROM (
      SELECT [genre_id], [name]
      FROM [#kiln_w1]) AS [_genre_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];

-- role: admin
-- root field: genre_by_pk (select_by_pk on dbo.genre)
-- query: query ($genre_id: Int!) { genre_by_pk(genre_id: $genre_id) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[genre]; filter: none (every row)
--   columns: genre_id, name
-- @p1 = variable $genre_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_genre_1].[genre_id] AS [genre_id], [_genre_1].[name] AS [name]
      FROM [dbo].[genre] AS [_genre_1]
      WHERE ([_genre_1].[genre_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [genre_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

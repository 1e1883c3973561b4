-- { genre(order_by: {genre_id: asc}, offset: 20) { genre_id name } }
-- @p1 = constant 20 :: int8
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_genre_1].[genre_id] AS [genre_id], [_genre_1].[name] AS [name]
        FROM [dbo].[genre] AS [_genre_1]
        WHERE 1 = 1
        ORDER BY CASE WHEN [_genre_1].[genre_id] IS NULL THEN 1 ELSE 0 END, [_genre_1].[genre_id] ASC
        OFFSET @p1 ROWS FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [genre] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

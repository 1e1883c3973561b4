-- { album(where: {artist_id: {_eq: 90}}, order_by: {title: asc}, limit: 5) { album_id title } }
-- @p1 = constant 5 :: int
-- @p2 = constant 90 :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT TOP (@p1) [_album_1].[album_id] AS [album_id], [_album_1].[title] AS [title]
        FROM [dbo].[album] AS [_album_1]
        WHERE ([_album_1].[artist_id] = @p2)
        ORDER BY CASE WHEN [_album_1].[title] IS NULL THEN 1 ELSE 0 END, [_album_1].[title] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [album] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

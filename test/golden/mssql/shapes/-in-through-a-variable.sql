-- query ($ids: [Int!]) { album(where: {album_id: {_in: $ids}}, order_by: {album_id: desc}) { album_id title } }
-- @p1 = variable $ids :: int[]
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_album_1].[album_id] AS [album_id], [_album_1].[title] AS [title]
        FROM [dbo].[album] AS [_album_1]
        WHERE ([_album_1].[album_id] IN (
            SELECT [value]
            FROM OPENJSON(@p1)))
        ORDER BY CASE WHEN [_album_1].[album_id] IS NULL THEN 0 ELSE 1 END, [_album_1].[album_id] DESC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [album] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

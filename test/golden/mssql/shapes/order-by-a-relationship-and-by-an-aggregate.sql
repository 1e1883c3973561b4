-- { album(order_by: [{artist: {name: desc}}, {album_id: asc}], limit: 5) { album_id artist { name } } artist(order_by: [{albums_aggregate: {count: desc}}, {artist_id: asc}], limit: 3) { artist_id } }
-- @p1 = constant 5 :: int
-- @p2 = constant 3 :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT TOP (@p1) [_album_1].[album_id] AS [album_id], JSON_QUERY([_rel_1].[json]) AS [artist]
        FROM [dbo].[album] AS [_album_1] OUTER APPLY (
          SELECT (
            SELECT TOP (1) [_artist_1].[name] AS [name]
            FROM [dbo].[artist] AS [_artist_1]
            WHERE ([_artist_1].[artist_id] = [_album_1].[artist_id]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_1]
        WHERE 1 = 1
        ORDER BY CASE WHEN (
          SELECT TOP (1) [_artist_2].[name]
          FROM [dbo].[artist] AS [_artist_2]
          WHERE ([_artist_2].[artist_id] = [_album_1].[artist_id])) IS NULL THEN 0 ELSE 1 END, (
          SELECT TOP (1) [_artist_2].[name]
          FROM [dbo].[artist] AS [_artist_2]
          WHERE ([_artist_2].[artist_id] = [_album_1].[artist_id])) DESC, CASE WHEN [_album_1].[album_id] IS NULL THEN 1 ELSE 0 END, [_album_1].[album_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [album], JSON_QUERY(ISNULL((
        SELECT TOP (@p2) [_artist_3].[artist_id] AS [artist_id]
        FROM [dbo].[artist] AS [_artist_3]
        WHERE 1 = 1
        ORDER BY CASE WHEN (
          SELECT COUNT(*)
          FROM [dbo].[album] AS [_album_2]
          WHERE ([_album_2].[artist_id] = [_artist_3].[artist_id])) IS NULL THEN 0 ELSE 1 END, (
          SELECT COUNT(*)
          FROM [dbo].[album] AS [_album_2]
          WHERE ([_album_2].[artist_id] = [_artist_3].[artist_id])) DESC, CASE WHEN [_artist_3].[artist_id] IS NULL THEN 1 ELSE 0 END, [_artist_3].[artist_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [artist] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

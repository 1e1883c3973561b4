-- { artist(where: {artist_id: {_in: [1, 8, 22]}}, order_by: {artist_id: asc}) { name albums(order_by: {title: desc}) { title tracks(where: {milliseconds: {_gt: 300000}}, order_by: {name: asc}, limit: 2) { name genre { name } media_type { name } } } } }
-- @p1 = constant 2 :: int
-- @p2 = constant 300000 :: int
-- @p3 = constant [1,8,22] :: int[]
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_artist_1].[name] AS [name], JSON_QUERY(ISNULL([_rel_1].[json], N'[]')) AS [albums]
        FROM [dbo].[artist] AS [_artist_1] OUTER APPLY (
          SELECT (
            SELECT [_album_1].[title] AS [title], JSON_QUERY(ISNULL([_rel_2].[json], N'[]')) AS [tracks]
            FROM [dbo].[album] AS [_album_1] OUTER APPLY (
              SELECT (
                SELECT TOP (@p1) [_track_1].[name] AS [name], JSON_QUERY([_rel_3].[json]) AS [genre], JSON_QUERY([_rel_4].[json]) AS [media_type]
                FROM [dbo].[track] AS [_track_1] OUTER APPLY (
                  SELECT (
                    SELECT TOP (1) [_genre_1].[name] AS [name]
                    FROM [dbo].[genre] AS [_genre_1]
                    WHERE ([_genre_1].[genre_id] = [_track_1].[genre_id]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_3] OUTER APPLY (
                  SELECT (
                    SELECT TOP (1) [_media_type_1].[name] AS [name]
                    FROM [dbo].[media_type] AS [_media_type_1]
                    WHERE ([_media_type_1].[media_type_id] = [_track_1].[media_type_id]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_4]
                WHERE ([_track_1].[album_id] = [_album_1].[album_id]) AND ([_track_1].[milliseconds] > @p2)
                ORDER BY CASE WHEN [_track_1].[name] IS NULL THEN 1 ELSE 0 END, [_track_1].[name] ASC FOR JSON PATH, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_2]
            WHERE ([_album_1].[artist_id] = [_artist_1].[artist_id])
            ORDER BY CASE WHEN [_album_1].[title] IS NULL THEN 0 ELSE 1 END, [_album_1].[title] DESC FOR JSON PATH, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_1]
        WHERE ([_artist_1].[artist_id] IN (
            SELECT [value]
            FROM OPENJSON(@p3)))
        ORDER BY CASE WHEN [_artist_1].[artist_id] IS NULL THEN 1 ELSE 0 END, [_artist_1].[artist_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [artist] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

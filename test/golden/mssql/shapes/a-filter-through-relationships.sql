-- { album(where: {tracks: {genre: {name: {_eq: "Jazz"}}}}, order_by: {album_id: asc}, limit: 8) { title artist { name } } }
-- @p1 = constant 8 :: int
-- @p2 = constant "Jazz" :: nvarchar(120)
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT TOP (@p1) [_album_1].[title] AS [title], JSON_QUERY([_rel_1].[json]) AS [artist]
        FROM [dbo].[album] AS [_album_1] OUTER APPLY (
          SELECT (
            SELECT TOP (1) [_artist_1].[name] AS [name]
            FROM [dbo].[artist] AS [_artist_1]
            WHERE ([_artist_1].[artist_id] = [_album_1].[artist_id]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_1]
        WHERE EXISTS (
          SELECT 1
          FROM [dbo].[track] AS [_track_1]
          WHERE ([_track_1].[album_id] = [_album_1].[album_id]) AND EXISTS (
            SELECT 1
            FROM [dbo].[genre] AS [_genre_1]
            WHERE ([_genre_1].[genre_id] = [_track_1].[genre_id]) AND ([_genre_1].[name] = @p2)))
        ORDER BY CASE WHEN [_album_1].[album_id] IS NULL THEN 1 ELSE 0 END, [_album_1].[album_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [album] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

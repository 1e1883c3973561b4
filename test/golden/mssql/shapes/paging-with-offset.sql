-- { track(order_by: [{milliseconds: desc}, {track_id: asc}], offset: 10, limit: 7) { track_id name milliseconds } }
-- @p1 = constant 10 :: int8
-- @p2 = constant 7 :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_track_1].[track_id] AS [track_id], [_track_1].[name] AS [name], [_track_1].[milliseconds] AS [milliseconds]
        FROM [dbo].[track] AS [_track_1]
        WHERE 1 = 1
        ORDER BY CASE WHEN [_track_1].[milliseconds] IS NULL THEN 0 ELSE 1 END, [_track_1].[milliseconds] DESC, CASE WHEN [_track_1].[track_id] IS NULL THEN 1 ELSE 0 END, [_track_1].[track_id] ASC
        OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [track] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

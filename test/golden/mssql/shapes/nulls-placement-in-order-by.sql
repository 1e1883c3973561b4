-- { track(where: {album_id: {_lte: 20}}, order_by: [{composer: asc_nulls_first}, {track_id: desc}], limit: 12) { track_id composer } a: track(where: {album_id: {_lte: 20}}, order_by: [{composer: desc}, {track_id: asc}], limit: 12) { track_id composer } }
-- @p1 = constant 12 :: int
-- @p2 = constant 20 :: int
-- @p3 = constant 12 :: int
-- @p4 = constant 20 :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT TOP (@p1) [_track_1].[track_id] AS [track_id], [_track_1].[composer] AS [composer]
        FROM [dbo].[track] AS [_track_1]
        WHERE ([_track_1].[album_id] <= @p2)
        ORDER BY [_track_1].[composer] ASC, CASE WHEN [_track_1].[track_id] IS NULL THEN 0 ELSE 1 END, [_track_1].[track_id] DESC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [track], JSON_QUERY(ISNULL((
        SELECT TOP (@p3) [_track_2].[track_id] AS [track_id], [_track_2].[composer] AS [composer]
        FROM [dbo].[track] AS [_track_2]
        WHERE ([_track_2].[album_id] <= @p4)
        ORDER BY CASE WHEN [_track_2].[composer] IS NULL THEN 0 ELSE 1 END, [_track_2].[composer] DESC, CASE WHEN [_track_2].[track_id] IS NULL THEN 1 ELSE 0 END, [_track_2].[track_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [a] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

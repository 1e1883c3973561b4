-- { a: track_by_pk(track_id: 42) { name unit_price album { title } } b: track_by_pk(track_id: 987654) { name } }
-- @p1 = constant 42 :: int
-- @p2 = constant 987654 :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_track_1].[name] AS [name], [_track_1].[unit_price] AS [unit_price], JSON_QUERY([_rel_1].[json]) AS [album]
      FROM [dbo].[track] AS [_track_1] OUTER APPLY (
        SELECT (
          SELECT TOP (1) [_album_1].[title] AS [title]
          FROM [dbo].[album] AS [_album_1]
          WHERE ([_album_1].[album_id] = [_track_1].[album_id]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_1]
      WHERE ([_track_1].[track_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [a], JSON_QUERY((
      SELECT TOP (1) [_track_2].[name] AS [name]
      FROM [dbo].[track] AS [_track_2]
      WHERE ([_track_2].[track_id] = @p2) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [b] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

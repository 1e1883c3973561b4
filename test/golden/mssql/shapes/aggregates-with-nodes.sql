-- { track_aggregate(where: {album_id: {_eq: 1}}) { aggregate { count sum { milliseconds unit_price } avg { milliseconds } max { name bytes } min { unit_price } } nodes { track_id } } }
-- @p1 = constant 1 :: int
-- @p2 = constant 1 :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT JSON_QUERY((
          SELECT COUNT(*) AS [count], SUM([_r_1].[__kiln_c0]) AS [sum.milliseconds], SUM([_r_1].[__kiln_c1]) AS [sum.unit_price], AVG(CAST([_r_1].[__kiln_c0] AS float)) AS [avg.milliseconds], MAX([_r_1].[__kiln_c2]) AS [max.name], MAX([_r_1].[__kiln_c3]) AS [max.bytes], MIN([_r_1].[__kiln_c1]) AS [min.unit_price]
          FROM (
            SELECT [_track_1].[milliseconds] AS [__kiln_c0], [_track_1].[unit_price] AS [__kiln_c1], [_track_1].[name] AS [__kiln_c2], [_track_1].[bytes] AS [__kiln_c3]
            FROM [dbo].[track] AS [_track_1]
            WHERE ([_track_1].[album_id] = @p1)) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
            SELECT [_track_1].[track_id] AS [track_id]
            FROM [dbo].[track] AS [_track_1]
            WHERE ([_track_1].[album_id] = @p2) FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [track_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

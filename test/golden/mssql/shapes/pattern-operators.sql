-- { artist(where: {_or: [{name: {_like: "%Zeppelin%"}}, {name: {_ilike: "metal%"}}]}, order_by: {artist_id: asc}) { artist_id name } n: artist(where: {name: {_nlike: "A%"}}, order_by: {artist_id: asc}, limit: 3) { name } }
-- @p1 = constant "%Zeppelin%" :: text
-- @p2 = constant "metal%" :: text
-- @p3 = constant 3 :: int
-- @p4 = constant "A%" :: text
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_artist_1].[artist_id] AS [artist_id], [_artist_1].[name] AS [name]
        FROM [dbo].[artist] AS [_artist_1]
        WHERE ((CAST([_artist_1].[name] AS nvarchar(max)) LIKE @p1) OR (CAST([_artist_1].[name] AS nvarchar(max)) COLLATE Latin1_General_100_CI_AS LIKE @p2))
        ORDER BY CASE WHEN [_artist_1].[artist_id] IS NULL THEN 1 ELSE 0 END, [_artist_1].[artist_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [artist], JSON_QUERY(ISNULL((
        SELECT TOP (@p3) [_artist_2].[name] AS [name]
        FROM [dbo].[artist] AS [_artist_2]
        WHERE (CAST([_artist_2].[name] AS nvarchar(max)) NOT LIKE @p4)
        ORDER BY CASE WHEN [_artist_2].[artist_id] IS NULL THEN 1 ELSE 0 END, [_artist_2].[artist_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [n] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

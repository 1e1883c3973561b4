-- { artist(where: {artist_id: {_in: [25, 26]}}, order_by: {artist_id: asc}) { artist_id albums { title } } employee(order_by: {employee_id: asc}, limit: 2) { employee_id manager { employee_id } } }
-- @p1 = constant [25,26] :: int[]
-- @p2 = constant 2 :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_artist_1].[artist_id] AS [artist_id], JSON_QUERY(ISNULL([_rel_1].[json], N'[]')) AS [albums]
        FROM [dbo].[artist] AS [_artist_1] OUTER APPLY (
          SELECT (
            SELECT [_album_1].[title] AS [title]
            FROM [dbo].[album] AS [_album_1]
            WHERE ([_album_1].[artist_id] = [_artist_1].[artist_id]) FOR JSON PATH, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_1]
        WHERE ([_artist_1].[artist_id] IN (
            SELECT [value]
            FROM OPENJSON(@p1)))
        ORDER BY CASE WHEN [_artist_1].[artist_id] IS NULL THEN 1 ELSE 0 END, [_artist_1].[artist_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [artist], JSON_QUERY(ISNULL((
        SELECT TOP (@p2) [_employee_1].[employee_id] AS [employee_id], JSON_QUERY([_rel_2].[json]) AS [manager]
        FROM [dbo].[employee] AS [_employee_1] OUTER APPLY (
          SELECT (
            SELECT TOP (1) [_employee_2].[employee_id] AS [employee_id]
            FROM [dbo].[employee] AS [_employee_2]
            WHERE ([_employee_2].[employee_id] = [_employee_1].[reports_to]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_2]
        WHERE 1 = 1
        ORDER BY CASE WHEN [_employee_1].[employee_id] IS NULL THEN 1 ELSE 0 END, [_employee_1].[employee_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [employee] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

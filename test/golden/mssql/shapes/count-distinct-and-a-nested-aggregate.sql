-- { invoice_aggregate { aggregate { count(columns: billing_country, distinct: true) c2: count(columns: billing_state) } } artist(limit: 3, order_by: {artist_id: asc}) { name albums_aggregate { aggregate { count } } } }
-- @p1 = constant 3 :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT JSON_QUERY((
          SELECT COUNT(DISTINCT [_r_1].[__kiln_c0]) AS [count], COUNT([_r_1].[__kiln_c1]) AS [c2]
          FROM (
            SELECT [_invoice_1].[billing_country] AS [__kiln_c0], [_invoice_1].[billing_state] AS [__kiln_c1]
            FROM [dbo].[invoice] AS [_invoice_1]
            WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [invoice_aggregate], JSON_QUERY(ISNULL((
        SELECT TOP (@p1) [_artist_1].[name] AS [name], JSON_QUERY([_rel_1].[json]) AS [albums_aggregate]
        FROM [dbo].[artist] AS [_artist_1] OUTER APPLY (
          SELECT (
            SELECT JSON_QUERY((
                SELECT COUNT(*) AS [count]
                FROM (
                  SELECT 1 AS [__kiln_one]
                  FROM [dbo].[album] AS [_album_1]
                  WHERE ([_album_1].[artist_id] = [_artist_1].[artist_id])) AS [_r_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_1]
        WHERE 1 = 1
        ORDER BY CASE WHEN [_artist_1].[artist_id] IS NULL THEN 1 ELSE 0 END, [_artist_1].[artist_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [artist] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

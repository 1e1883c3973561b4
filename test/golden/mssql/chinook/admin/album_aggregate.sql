-- role: admin
-- root field: album_aggregate (select_aggregate on dbo.album)
-- query: query { album_aggregate { aggregate { count } nodes { album_id title artist_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[album]; filter: none (every row)
--   columns: album_id, title, artist_id; row limit: none; aggregations: yes
SELECT (
  SELECT JSON_QUERY((
      SELECT JSON_QUERY((
          SELECT COUNT(*) AS [count]
          FROM (
            SELECT 1 AS [__kiln_one]
            FROM [dbo].[album] AS [_album_1]
            WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
            SELECT [_album_1].[album_id] AS [album_id], [_album_1].[title] AS [title], [_album_1].[artist_id] AS [artist_id]
            FROM [dbo].[album] AS [_album_1]
            WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [album_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];

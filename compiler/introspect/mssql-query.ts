// The SQL Server catalog query: one statement over sys.* whose single value is the whole catalog
// as JSON text (tables and views, columns with their types, nullability, defaults and identity,
// primary and unique keys, foreign keys, comments). It is wrapped in an outer SELECT so that the
// JSON comes back as one nvarchar(max) value, not split over rows as a bare FOR JSON result is.

/** The catalog of every user schema of the database. */
export const MSSQL_CATALOG_QUERY = `SELECT (
  SELECT
    CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS [version],
    JSON_QUERY(ISNULL((
      SELECT s.name AS [name] FROM sys.schemas AS s
      WHERE s.schema_id < 16384 AND s.name NOT IN ('sys', 'INFORMATION_SCHEMA', 'guest')
      ORDER BY s.name FOR JSON PATH), '[]')) AS [schemas],
    JSON_QUERY(ISNULL((
      SELECT o.[schema], o.[name], o.[kind],
        CAST(ep.value AS nvarchar(max)) AS [comment],
        JSON_QUERY(ISNULL((
          SELECT c.column_id AS [position], c.name AS [name], t.name AS [type], TYPE_NAME(t.system_type_id) AS [baseType],
            SCHEMA_NAME(t.schema_id) AS [typeSchema], c.max_length AS [maxLength], c.precision AS [precision], c.scale AS [scale],
            c.is_nullable AS [nullable], c.is_identity AS [identity], c.is_computed AS [computed],
            dc.definition AS [default], CAST(cp.value AS nvarchar(max)) AS [comment]
          FROM sys.columns AS c
          JOIN sys.types AS t ON t.user_type_id = c.user_type_id
          LEFT JOIN sys.default_constraints AS dc ON dc.object_id = c.default_object_id
          LEFT JOIN sys.extended_properties AS cp ON cp.major_id = c.object_id AND cp.minor_id = c.column_id AND cp.class = 1 AND cp.name = 'MS_Description'
          WHERE c.object_id = o.object_id
          ORDER BY c.column_id FOR JSON PATH, INCLUDE_NULL_VALUES), '[]')) AS [columns],
        JSON_QUERY(ISNULL((
          SELECT kc.name AS [name], kc.type AS [type],
            JSON_QUERY(ISNULL((
              SELECT col.name AS [name] FROM sys.index_columns AS ic
              JOIN sys.columns AS col ON col.object_id = ic.object_id AND col.column_id = ic.column_id
              WHERE ic.object_id = kc.parent_object_id AND ic.index_id = kc.unique_index_id
              ORDER BY ic.key_ordinal FOR JSON PATH), '[]')) AS [columns]
          FROM sys.key_constraints AS kc
          WHERE kc.parent_object_id = o.object_id
          ORDER BY kc.name FOR JSON PATH), '[]')) AS [keys],
        JSON_QUERY(ISNULL((
          SELECT fk.name AS [name], SCHEMA_NAME(rt.schema_id) AS [refSchema], rt.name AS [refTable],
            JSON_QUERY(ISNULL((
              SELECT pc.name AS [column], rc.name AS [refColumn] FROM sys.foreign_key_columns AS fkc
              JOIN sys.columns AS pc ON pc.object_id = fkc.parent_object_id AND pc.column_id = fkc.parent_column_id
              JOIN sys.columns AS rc ON rc.object_id = fkc.referenced_object_id AND rc.column_id = fkc.referenced_column_id
              WHERE fkc.constraint_object_id = fk.object_id
              ORDER BY fkc.constraint_column_id FOR JSON PATH), '[]')) AS [columns]
          FROM sys.foreign_keys AS fk
          JOIN sys.tables AS rt ON rt.object_id = fk.referenced_object_id
          WHERE fk.parent_object_id = o.object_id
          ORDER BY fk.name FOR JSON PATH), '[]')) AS [foreignKeys]
      FROM (
        SELECT tb.object_id, SCHEMA_NAME(tb.schema_id) AS [schema], tb.name, 'table' AS [kind] FROM sys.tables AS tb WHERE tb.is_ms_shipped = 0
        UNION ALL
        SELECT vw.object_id, SCHEMA_NAME(vw.schema_id), vw.name, 'view' FROM sys.views AS vw WHERE vw.is_ms_shipped = 0
      ) AS o
      LEFT JOIN sys.extended_properties AS ep ON ep.major_id = o.object_id AND ep.minor_id = 0 AND ep.class = 1 AND ep.name = 'MS_Description'
      ORDER BY o.[schema], o.name FOR JSON PATH, INCLUDE_NULL_VALUES), '[]')) AS [tables]
  FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES
) AS [catalog]`;

// pg's own value writer (lib/utils.js), which its typings do not declare: what pg's Query
// gives Bind to turn a value into the text PostgreSQL reads (CellQuery in pg.ts sends Bind itself).
declare module 'pg/lib/utils.js' {
  const utils: { readonly prepareValue: (value: unknown) => unknown };
  export default utils;
}

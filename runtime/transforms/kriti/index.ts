/** Parsing and running Kriti templates, with their result types. */
export { parseTemplate, parseStringTemplate, runTemplate, type Template, type Parsed, type Evaluated } from './template.js';
/** Kriti's wire-shaped error value and its codes. */
export type { KritiError, KritiErrorCode, SourcePosition } from './errors.js';
/** The function library (Kriti's basic functions plus getSessionVariable) and percent-encoding. */
export { transformFunctions, escapeUri, type FunctionTable, type KritiFunction } from './functions.js';
/** How a value renders inside a string template (strings raw, other values as compact JSON). */
export { renderText } from './values.js';
/** The syntax tree, for tools that inspect templates. */
export type { Expr } from './ast.js';

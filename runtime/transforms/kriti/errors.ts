// Kriti's error values in the wire shape Hasura serialises them to (reference/kriti.md §8):
// `{error_code, message, source_position}`, lines 0-based, columns 1-based, the end one past the
// last character. Inside the package positions are character offsets; they become lines and
// columns only when an error leaves it.

/** The error codes Kriti reports. */
export type KritiErrorCode =
  | 'Parse Error' | 'Lex Error' | 'Name Error' | 'Type Error' | 'Attribute Error' | 'Index Error'
  | 'Function Error' | 'Invalid Path';

/** A source range in Kriti's coordinates. */
export interface SourcePosition {
  readonly start_line: number;
  readonly start_column: number;
  readonly end_line: number;
  readonly end_column: number;
}

/** A Kriti error as it appears on the wire. */
export interface KritiError {
  readonly error_code: KritiErrorCode;
  readonly message: string;
  readonly source_position: SourcePosition;
}

/** Character offsets into the template text, `end` exclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Thrown inside the lexer, parser and evaluator; caught at the package boundary. */
export class KritiFailure extends Error {
  constructor(readonly code: KritiErrorCode, message: string, readonly span: Span) {
    super(message);
  }
}

/** Converts an offset to a 0-based line and 1-based column. */
function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 0;
  let lineStart = 0;
  const upTo = Math.min(offset, source.length);
  for (let i = 0; i < upTo; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The wire form of a failure raised while working on `source`. */
export function toKritiError(source: string, f: KritiFailure): KritiError {
  const start = lineColumn(source, f.span.start);
  const end = lineColumn(source, f.span.end);
  return {
    error_code: f.code,
    message: f.message,
    source_position: { start_line: start.line, start_column: start.column, end_line: end.line, end_column: end.column },
  };
}

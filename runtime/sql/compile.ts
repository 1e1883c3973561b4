import { Alias, type ParamSource, type Sql } from './fragment.js';
import type { Dialect } from './dialect.js';

/** A printed statement: text with numbered placeholders and where each parameter comes from. */
export interface CompiledSql {
  readonly text: string;
  readonly params: readonly ParamSlot[];
}

export interface ParamSlot {
  readonly source: ParamSource;
  readonly type: string | null;
}

/** Prints a fragment tree. Identical trees print identical text (aliases numbered by first use). */
export function compileSql(root: Sql, dialect: Dialect): CompiledSql {
  const params: ParamSlot[] = [];
  const aliases = new Map<Alias, string>();
  const hintCount = new Map<string, number>();
  const parts: string[] = [];
  const walk = (s: Sql): void => {
    switch (s.kind) {
      case 'raw': parts.push(s.text); return;
      case 'ident': parts.push(s.parts.map((p) => dialect.quoteIdent(p)).join('.')); return;
      case 'key': parts.push(dialect.keyLiteral(s.name)); return;
      case 'param': {
        params.push({ source: s.source, type: s.type });
        parts.push(dialect.typedPlaceholder(params.length, s.type));
        return;
      }
      case 'alias': {
        let name = aliases.get(s.alias);
        if (name === undefined) {
          const hint = s.alias.hint.replace(/[^A-Za-z0-9_]/g, '').slice(0, 40) || 't';
          const n = (hintCount.get(hint) ?? 0) + 1;
          hintCount.set(hint, n);
          name = `_${hint}_${n}`;
          aliases.set(s.alias, name);
        }
        parts.push(dialect.quoteIdent(name));
        return;
      }
      case 'seq': for (const it of s.items) walk(it); return;
    }
  };
  walk(root);
  return { text: parts.join(''), params };
}

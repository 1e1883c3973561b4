// Reads YAML files of a metadata directory and expands `!include` references. Both spellings
// the Hasura CLI and hand-written files use are followed: the tag (`tables: !include t.yaml`) and
// the quoted string (`- "!include public_author.yaml"`), relative to the including file.

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseDocument, type ScalarTag } from 'yaml';
import type { Issues, Path } from './reader.js';

class IncludeRef {
  constructor(readonly target: string) {}
}

const includeTag: ScalarTag = { tag: '!include', resolve: (value) => new IncludeRef(value.trim()) };
const INCLUDE_STRING = /^!include\s+(\S.*)$/;

/** Which file a part of the assembled document came from (for messages). */
export interface FileOrigin {
  readonly path: Path;
  readonly file: string;
}

function describe(e: unknown): string {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EISDIR') return 'is a directory, not a file';
  return e instanceof Error ? e.message : String(e);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof IncludeRef);
}

/** Loads YAML files into one JSON-like value, recording where each included part came from. */
export class YamlLoader {
  /** Paths of the document whose included file could not be read or parsed. */
  readonly failed: Path[] = [];
  readonly origins: FileOrigin[] = [];

  constructor(private readonly is: Issues) {}

  /** Reads `file` as the value at `at` in the document; undefined (and a problem) when it cannot. */
  async load(file: string, at: Path, stack: readonly string[] = []): Promise<unknown> {
    const key = resolve(file);
    if (stack.includes(key)) return this.fail(at, `${file}: !include cycle (${[...stack, key].join(' -> ')})`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      return this.fail(at, `cannot read ${file}: ${describe(e)}`);
    }
    let value: unknown;
    try {
      const doc = parseDocument(text, { customTags: [includeTag], uniqueKeys: true });
      const first = doc.errors[0];
      if (first !== undefined) return this.fail(at, `${file}: ${first.message.split('\n')[0] ?? ''}`);
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      return this.fail(at, `${file}: ${describe(e)}`);
    }
    if (at.length > 0) this.origins.push({ path: at, file });
    return this.expand(value, dirname(file), at, [...stack, key]);
  }

  private fail(at: Path, message: string): undefined {
    if (at.length > 0) this.failed.push(at);
    return this.is.fail(at, message);
  }

  private async expand(v: unknown, dir: string, at: Path, stack: readonly string[]): Promise<unknown> {
    const target = v instanceof IncludeRef ? v.target : typeof v === 'string' ? INCLUDE_STRING.exec(v)?.[1]?.trim() : undefined;
    if (target !== undefined) return this.load(isAbsolute(target) ? target : join(dir, target), at, stack);
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const [i, x] of v.entries()) out.push(await this.expand(x, dir, [...at, i], stack));
      return out;
    }
    if (isPlainObject(v)) {
      const entries: [string, unknown][] = [];
      for (const [k, x] of Object.entries(v)) entries.push([k, await this.expand(x, dir, [...at, k], stack)]);
      return Object.fromEntries(entries);
    }
    return v;
  }
}

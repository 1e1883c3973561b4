// Builds documents and runs one extra operation the way the registry would.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { extraOperations } from '../../compiler/ops/extra/index.js';
import type { OpOutput } from '../../compiler/ops/types.js';
import { parseMetadata, type Metadata } from '../../compiler/metadata/index.js';
import { ApiError, formatPath } from '../../runtime/errors/index.js';
import type { ApiKind } from '../../runtime/metadata-api/index.js';

export function doc(extra: Record<string, unknown> = {}, tables: unknown[] = []): Metadata {
  const { value, errors } = parseMetadata({
    version: 3,
    sources: [{ name: 'default', kind: 'postgres', tables, configuration: { connection_info: { database_url: 'postgres://x/y' } } }],
    ...extra,
  });
  expect(errors).toEqual([]);
  return value as Metadata;
}

export function chinook(): Metadata {
  const raw: unknown = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../fixtures/chinook/metadata.json'), 'utf8'));
  const { value } = parseMetadata(raw);
  return value as Metadata;
}

export function run(md: Metadata, type: string, args: unknown, api: ApiKind = 'metadata'): OpOutput {
  const entry = extraOperations[type];
  if (entry === undefined || !entry.apis.includes(api)) throw new Error(`unknown ${type} on ${api}`);
  return entry.handler({ metadata: md, args: args as never, version: 1, api, introspection: {} });
}

/** Runs and returns the new document (fails when nothing changed). */
export function apply(md: Metadata, type: string, args: unknown, api: ApiKind = 'metadata'): Metadata {
  const out = run(md, type, args, api);
  expect(out.metadata).not.toBeNull();
  return out.metadata as Metadata;
}

/** The management-API error body the operation fails with. */
export function failure(md: Metadata, type: string, args: unknown, api: ApiKind = 'metadata'): { path: string; error: string; code: string; internal?: unknown } {
  try {
    run(md, type, args, api);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const body = { path: formatPath(e.path), error: e.message, code: e.code };
    return e.internal === undefined ? body : { ...body, internal: e.internal };
  }
  throw new Error(`${type} did not fail`);
}

// Shared bits of the integration tests: metadata builders and small response helpers.
import { expect } from 'vitest';
import type { GqlBody } from '../helpers/kiln.js';

/** A v3 metadata export with one `default` postgres source holding `tables` (and tracked `functions`). */
export function metadataOf(tables: readonly unknown[], functions: readonly unknown[] = []): unknown {
  return {
    version: 3,
    sources: [{ name: 'default', kind: 'postgres', tables, functions, configuration: {} }],
  };
}

/** A tracked table entry in the public schema (or `schema`). */
export function table(name: string, extra: Record<string, unknown> = {}, schema = 'public'): Record<string, unknown> {
  return { table: { schema, name }, ...extra };
}

/** The `data` of a successful answer; fails the test with the errors otherwise. */
export function dataOf(body: GqlBody): Record<string, unknown> {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

/** The single error of a failed answer, as {message, path, code}. */
export function errorOf(body: GqlBody): { message: string; path: string; code: string } {
  expect(body.data, JSON.stringify(body.data)).toBeUndefined();
  expect(body.errors).toHaveLength(1);
  const e = body.errors![0]!;
  return { message: e.message, path: e.extensions.path, code: e.extensions.code };
}

/** The `id`s of a list of rows. */
export function ids(rows: unknown): unknown[] {
  return (rows as { id: unknown }[]).map((r) => r.id);
}

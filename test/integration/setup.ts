// Shared bits of the integration tests: metadata builders and small response helpers.
import { parse, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, expect } from 'vitest';
import { bindParams, planOperation } from '../../runtime/graphql/index.js';
import { postgres } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type GqlBody, type TestKiln } from '../helpers/kiln.js';

/**
 * For the tests of one file: a fresh database made by `setup` and a Kiln serving `metadata` on it,
 * handed to `use` before the tests run; the Kiln is closed and the database dropped after them.
 */
export function serveOnFreshDatabase(prefix: string, setup: string, metadata: unknown, use: (db: TestDatabase, kiln: TestKiln) => void): void {
  let db: TestDatabase | undefined;
  let kiln: TestKiln | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(prefix, setup);
    kiln = await startKiln({ metadata, databaseUrl: db.url });
    use(db, kiln);
  });
  afterAll(async () => {
    await kiln?.close();
    await db?.drop();
  });
}

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

/** The SQL text of a planned statement, its parameters' values, and whether it is value-sensitive. */
export interface AdminStatement {
  readonly text: string;
  readonly values: unknown[];
  readonly valueSensitive: boolean;
}

/** The admin's statement for `query` (one root field), as the engine plans it. */
export function adminStatement(kiln: TestKiln, query: string, variables: Record<string, unknown> = {}): AdminStatement {
  const document = parse(query);
  const plan = planOperation({ model: kiln.bundle.model, schema: kiln.bundle.schemas.admin!, role: 'admin', dialect: postgres,
    stringifyNumeric: false, document, operation: document.definitions[0] as OperationDefinitionNode, variables, structural: new Set() });
  if (plan.kind !== 'sql') throw new Error('expected one statement');
  return { text: plan.sql.text, values: bindParams(plan.sql.params, variables, { role: 'admin', variables: {} } as never), valueSensitive: plan.valueSensitive };
}

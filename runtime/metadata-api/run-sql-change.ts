// run_sql inside a change: the statement, then (after DDL) the source's catalog read again, the
// document reconciled with it and judged, all before the change commits.

import type { Json } from '../bundle/index.js';
import type { ApiContext } from './context.js';
import { judgeEdit } from './judge.js';
import { looksLikeDdl, runSql, type RunSqlArgs } from './run-sql.js';
import type { Runner, Work } from './state.js';
import { recordSession } from './v1-data.js';

/** Runs `args` as part of `work`; on the catalog's database inside its transaction, else in a transaction of its own. */
export async function runSqlInChange(cx: ApiContext, work: Work, args: RunSqlArgs): Promise<Json> {
  const driver = cx.sources.driverOf(work.drivers, args.source);
  const onCatalog = driver === cx.opts.catalog;
  const body = async (runner: Runner): Promise<Json> => {
    if (driver.dialect.name === 'postgres') await recordSession(runner, driver.dialect, work.session);
    const result = await runSql(runner, args);
    // Hasura's rule: the catalog is read again after DDL (or when asked to check), and the
    // metadata checked against it unless check_metadata_consistency is false.
    const ddl = args.checkMetadataConsistency === true || args.cascade || looksLikeDdl(args.sql);
    if (!ddl) return result;
    work.schemaChanged = true;
    const before = work.introspection[args.source] ?? null;
    const after = await cx.opts.compiler.introspect(runner);
    work.introspection = { ...work.introspection, [args.source]: after };
    const reconciled = cx.opts.compiler.reconcile(work.metadata, args.source, before, after, args.cascade === true);
    if (reconciled !== work.metadata) {
      work.metadata = reconciled;
      work.changed = true;
    }
    if (args.checkMetadataConsistency === false) {
      work.compiled = await cx.sources.compile(work.metadata, work.introspection);
      return result;
    }
    const judged = await judgeEdit(cx.opts.compiler, work.compiled.inconsistencies, work.metadata,
      { kind: 'sql', cascade: args.cascade }, (md) => cx.sources.compile(md, work.introspection));
    if (judged.metadata !== work.metadata) work.changed = true;
    work.metadata = judged.metadata;
    work.compiled = judged.compiled;
    return result;
  };
  if (onCatalog) return body(work.tx);
  // Another database: its own transaction, committed once the metadata fits it.
  return driver.transaction(body);
}

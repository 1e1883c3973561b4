// The engine's hook for remote schemas: an operation whose root fields include a remote's is
// split (runtime/remote), its table part planned and run as any operation, its remote calls
// sent at the same time, and the answers merged in the order the client asked.

import type { Session } from '../bundle/index.js';
import { mergeAnswers, runRemoteParts, splitOperation, type ClientHeaders, type RemoteServing, type SplitOperation } from '../remote/index.js';
import type { Prepared } from './prepare.js';
import { resolveSchemaJoins, type JoinEnv } from './remote-joins.js';

/** A split operation and the prepared operation of its table part (null: none). */
export interface PreparedSplit {
  readonly split: SplitOperation;
  readonly local: Prepared | null;
  /** A mutation: the table part first, then the remote calls (writes are not run side by side). */
  readonly sequential: boolean;
}

const splits = new WeakMap<Prepared, PreparedSplit | null>();

/** The split of a prepared operation for a role (computed once per prepared operation); null when no remote field is asked. */
export function splitFor(p: Prepared, remote: RemoteServing, role: string): PreparedSplit | null {
  let s = splits.get(p);
  if (s === undefined) {
    const op = p.operation.operation;
    const split = op === 'subscription' ? null : splitOperation(p.document, p.operation, (kind, field) => remote.owner(role, kind, field),
      (view) => remote.joinsOf(view.def.name));
    s = split === null ? null : {
      split, sequential: op === 'mutation',
      local: split.local === null ? null : { ...p, operation: split.local, plans: new Map(), structural: new Set(p.structural) },
    };
    splits.set(p, s);
  }
  return s;
}

/** Runs the table part (through `runLocal`, which answers `{"data":...}`) and the remote calls at once; merges them. */
export async function runWithRemotes(s: PreparedSplit, variables: { readonly [k: string]: unknown }, session: Session,
  headers: ClientHeaders | null, operationName: string | null, runLocal: (p: Prepared) => Promise<string>, joinEnv: JoinEnv,
  cookies?: string[]): Promise<string> {
  const remote = async (): Promise<Awaited<ReturnType<typeof runRemoteParts>>> => {
    const answers = await runRemoteParts(s.split, variables, session, headers, operationName, cookies);
    // Relationships from the remotes' types to tables and other remotes: joined into each answer,
    // with the other remotes' errors added to it.
    const joined = await Promise.all(s.split.remotes.map((p, i) => (p.joins ? resolveSchemaJoins(answers[i]!.data as Record<string, unknown> | null, p.joins, joinEnv) : [])));
    return answers.map((a, i) => (joined[i]!.length > 0 ? { ...a, errors: [...a.errors, ...joined[i]!] } : a));
  };
  const local = (): Promise<string | null> => (s.local ? runLocal(s.local) : Promise.resolve(null));
  const [localText, answers] = s.sequential ? [await local(), await remote()] : await Promise.all([local(), remote()]);
  const localBody = localText === null ? null : (JSON.parse(localText) as { data?: Record<string, unknown>; errors?: unknown[] });
  const merged = mergeAnswers(s.split, localBody?.data ?? null, answers);
  if (!localBody?.errors?.length) return merged;
  // Errors of the table part (a remote relationship's remote) come first.
  const m = JSON.parse(merged) as { data: unknown; errors?: unknown[] };
  return JSON.stringify({ data: m.data, errors: [...localBody.errors, ...(m.errors ?? [])] });
}

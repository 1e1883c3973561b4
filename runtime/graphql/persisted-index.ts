// The stored queries of a bundle as the engine serves them: found by their exact text (no parse),
// by their printed shape, or by (collection, name) for REST endpoints; each prepared once per role
// when the engine is made, with the bundle's compiled plan in place of planning.

import { parse, print, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { BundleModel, PersistedQueryModel, RestEndpointModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Dialect } from '../sql/index.js';
import { planFromModel, planStoredQuery } from './persisted.js';
import { planSignature, prepareOperation, type Prepared } from './prepare.js';

/** One stored query and, per role that may run it, the operation ready to bind and run. */
export interface StoredEntry {
  readonly query: PersistedQueryModel;
  /** The single operation's name (null: anonymous). */
  readonly operationName: string | null;
  readonly prepared: ReadonlyMap<string, Prepared>;
}

export interface StoredIndexInput {
  readonly model: BundleModel;
  readonly schemaFor: (role: string) => GraphQLSchema;
  /** The dialect requests are planned in; null when it cannot be known yet (plans are then taken as compiled). */
  readonly dialect: Dialect | null;
  /** Each source's dialect (a stored query may read sources of several kinds). */
  readonly dialectOf?: (source: string) => Dialect;
  readonly stringifyNumeric: boolean;
}

const nameKey = (collection: string, name: string): string => `${collection}\u0000${name}`;

/** The stored queries, the allow-list and the REST endpoints of one model. */
export class StoredIndex {
  private readonly text = new Map<string, StoredEntry>();
  private readonly shape = new Map<string, StoredEntry>();
  private readonly named = new Map<string, StoredEntry>();
  // sha256 of an admitted document -> who it admits.
  private readonly admitted = new Map<string, { global: boolean; roles: Set<string> }>();

  constructor(private readonly input: StoredIndexInput) {
    const persisted = input.model.persisted;
    for (const q of persisted?.queries ?? []) {
      const entry = this.entryOf(q);
      this.named.set(nameKey(q.collection, q.name), entry);
      if (q.sha256 !== null) merge(this.text, q.query, entry);
    }
    for (const a of persisted?.allowlist ?? []) {
      for (const q of persisted?.queries ?? []) {
        if (q.collection !== a.collection || q.sha256 === null) continue;
        const who = this.admitted.get(q.sha256) ?? { global: false, roles: new Set<string>() };
        if (a.scope.global) who.global = true;
        else for (const r of a.scope.roles) who.roles.add(r);
        this.admitted.set(q.sha256, who);
      }
    }
  }

  /** The stored query with exactly this text. */
  byText(text: string): StoredEntry | undefined {
    return this.text.get(text);
  }

  /** The stored query whose document prints as `shape` (the same text formatted otherwise). */
  byShape(shape: string): StoredEntry | undefined {
    return this.shape.get(shape);
  }

  /** The query `name` of collection `collection`. */
  byName(collection: string, name: string): StoredEntry | undefined {
    return this.named.get(nameKey(collection, name));
  }

  /** True when an allow-listed collection whose scope includes `role` holds a document with this key. */
  admits(sha256: string, role: string): boolean {
    const who = this.admitted.get(sha256);
    return who !== undefined && (who.global || who.roles.has(role));
  }

  /** The REST endpoints, sorted by name. */
  get endpoints(): readonly RestEndpointModel[] {
    return this.input.model.persisted?.restEndpoints ?? [];
  }

  private entryOf(q: PersistedQueryModel): StoredEntry {
    const prepared = new Map<string, Prepared>();
    const roles = Object.keys(q.plans);
    if (q.sha256 === null || roles.length === 0) return { query: q, operationName: null, prepared };
    const document = parse(q.query);
    const entry: StoredEntry = { query: q, operationName: operationNameOf(document), prepared };
    for (const role of roles) {
      const p = this.prepare(q, role, document);
      if (p) prepared.set(role, p);
    }
    merge(this.shape, print(document), entry);
    return entry;
  }

  // The compiled plan when it was planned as this engine plans (dialect, number printing);
  // otherwise planned now, once, from the parsed document.
  private prepare(q: PersistedQueryModel, role: string, document: DocumentNode): Prepared | null {
    const { model, dialect, stringifyNumeric } = this.input;
    const schema = this.input.schemaFor(role);
    const compiled = q.plans[role] ?? null;
    const same = (dialect === null || dialect.name === model.persisted?.dialect) && stringifyNumeric === model.options.stringifyNumeric;
    if (same && compiled !== null) {
      let p: Prepared;
      try {
        p = prepareOperation(schema, document, null);
      } catch (e) {
        if (e instanceof ApiError) return null;
        throw e;
      }
      p.plans.set(everyVariableGiven(p), planFromModel(compiled));
      return p;
    }
    if (dialect === null) return null;
    const planning = planStoredQuery({ model, schema, role, dialect, ...(this.input.dialectOf ? { dialectOf: this.input.dialectOf } : {}), stringifyNumeric, document });
    if (planning.kind === 'invalid') return null;
    const p = planning.prepared;
    if (planning.plan !== null) p.plans.set(everyVariableGiven(p), planning.plan);
    return p;
  }
}

// The same document in several collections (each compiled for its own roles): one entry with
// every role's prepared operation, as the plan depends only on the text and the role.
function merge(map: Map<string, StoredEntry>, key: string, entry: StoredEntry): void {
  const seen = map.get(key);
  map.set(key, seen ? { ...seen, prepared: new Map([...entry.prepared, ...seen.prepared]) } : entry);
}

function operationNameOf(document: DocumentNode): string | null {
  const op = document.definitions.find((d) => d.kind === 'OperationDefinition');
  return op?.kind === 'OperationDefinition' ? op.name?.value ?? null : null;
}

// The plan key of a request that gives every variable (what a stored plan is planned for).
function everyVariableGiven(p: Prepared): string {
  return planSignature(p, Object.fromEntries((p.operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, 0])));
}

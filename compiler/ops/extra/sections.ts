// replace_metadata reads the sections Kiln keeps as raw JSON (query collections, the allow-list,
// REST endpoints, inherited roles, cron triggers, remote schemas; the introspection options, API
// limits and metrics settings) with the readers of the operations that create or set them, as
// Hasura parses the whole document with each part's FromJSON before it builds anything
// (RQL/Types/Metadata.hs: parseListAsMap over CreateCollection, the allow-list entry,
// CreateEndpoint, AddInheritedRole, CronTriggerMetadata, RemoteSchemaMetadata; the settings' own
// parsers). A bad one refuses the document with `parse-failed` at its path under the metadata
// (`$.args.query_collections[0]`), and nothing changes. What Hasura judges later, while it builds
// (a remote schema's URL rules, a stored query against the schema), stays with the compile and
// its inconsistencies.

import { ApiError, ArgsReader, type JsonPath } from '../../../runtime/errors/index.js';
import type { Json, Metadata } from '../../metadata/index.js';
import { readApiLimits } from '../../model/index.js';
import { readScope } from './allowlist.js';
import { readCronDefinition } from './cron-triggers.js';
import { readInheritedRole } from './inherited-roles.js';
import { readQueries } from './query-collections.js';
import { readIntrospectionOptions } from './settings.js';
import { readEndpoint } from './rest-endpoints.js';

type EntryReader = (r: ArgsReader) => void;

const READERS: ReadonlyArray<readonly [keyof Metadata, EntryReader]> = [
  ['query_collections', (r) => {
    r.name('name');
    readQueries(r);
    r.comment();
  }],
  ['allowlist', (r) => {
    r.name('collection');
    const scope = r.optObject('scope');
    if (scope !== undefined) readScope(scope);
  }],
  ['rest_endpoints', (r) => { readEndpoint(r); }],
  ['inherited_roles', (r) => { readInheritedRole(r); }],
  ['cron_triggers', (r) => {
    readCronDefinition(r);
    r.comment();
  }],
  ['remote_schemas', (r) => {
    r.name('name');
    r.object('definition');
  }],
];

// The settings kept as one object each, read as their set_* operations read their args.
const SETTINGS: ReadonlyArray<readonly [keyof Metadata, EntryReader]> = [
  ['graphql_schema_introspection', (r) => { readIntrospectionOptions(r); }],
  ['api_limits', (r) => { readApiLimits(r.value, r.path); }],
  ['metrics_config', (r) => {
    r.bool('analyze_query_variables');
    r.bool('analyze_response_body');
  }],
];

/** The refusal of `read` on the value at `at`, or undefined when it reads. */
function refusal(read: EntryReader, value: Json, at: JsonPath): ApiError | undefined {
  try {
    read(ArgsReader.object(value, at));
    return undefined;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
}

/** The first raw-section entry or setting its operation's reader refuses, with its path under the document; undefined when all read. */
export function sectionProblem(md: Metadata): ApiError | undefined {
  for (const [key, read] of READERS) {
    const list = md[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const problem = refusal(read, list[i] as Json, [key, i]);
      if (problem) return problem;
    }
  }
  for (const [key, read] of SETTINGS) {
    const value = md[key];
    if (value === undefined) continue;
    const problem = refusal(read, value as Json, [key]);
    if (problem) return problem;
  }
  return undefined;
}

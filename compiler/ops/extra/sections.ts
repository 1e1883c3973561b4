// replace_metadata reads the sections Kiln keeps as raw JSON (query collections, the allow-list,
// REST endpoints, inherited roles, cron triggers, remote schemas) with the readers of the
// operations that create their entries, as Hasura parses the whole document with each entry's
// FromJSON before it builds anything (RQL/Types/Metadata.hs: parseListAsMap over CreateCollection,
// the allow-list entry, CreateEndpoint, AddInheritedRole, CronTriggerMetadata,
// RemoteSchemaMetadata). A bad entry refuses the document with `parse-failed` at its path under
// the metadata (`$.args.query_collections[0]`), and nothing changes. What Hasura judges later,
// while it builds (a remote schema's URL rules, a stored query against the schema), stays with the
// compile and its inconsistencies.

import { ApiError, ArgsReader, type JsonPath } from '../../../runtime/errors/index.js';
import type { Json, Metadata } from '../../metadata/index.js';
import { readScope } from './allowlist.js';
import { readCronDefinition } from './cron-triggers.js';
import { readInheritedRole } from './inherited-roles.js';
import { readQueries } from './query-collections.js';
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

/** The first entry of a raw section that its operation's reader refuses, with its path under the document; undefined when all read. */
export function sectionProblem(md: Metadata): ApiError | undefined {
  for (const [key, read] of READERS) {
    const list = md[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const at: JsonPath = [key, i];
      try {
        read(ArgsReader.object(list[i] as Json, at));
      } catch (e) {
        if (e instanceof ApiError) return e;
        throw e;
      }
    }
  }
  return undefined;
}

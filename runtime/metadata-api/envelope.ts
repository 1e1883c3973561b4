// The body of a management call: `{type, args, version?, resource_version?}` (spec part B 4.1).

import type { Json } from '../bundle/index.js';
import { ApiError, jsonKind } from '../errors/index.js';
import type { ApiKind } from './contract.js';

export interface Envelope {
  readonly type: string;
  readonly args: Json;
  readonly version?: number;
  /** The metadata version the caller saw; a different current one is a 409 `conflict`. */
  readonly resourceVersion?: number;
  readonly api: ApiKind;
}

/** Reads an envelope; problems are `parse-failed` with the path of the offending key. */
export function parseEnvelope(body: unknown, api: ApiKind): Envelope {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('parse-failed', `parsing Object failed, expected Object, but encountered ${jsonKind(body)}`, 400, []);
  }
  const o = body as Record<string, unknown>;
  const type = o['type'];
  if (type === undefined) throw new ApiError('parse-failed', "the key 'type' was not present", 400, []);
  if (typeof type !== 'string') throw new ApiError('parse-failed', `parsing Text failed, expected String, but encountered ${jsonKind(type)}`, 400, ['type']);
  const version = naturalAt(o, 'version');
  if (version !== undefined) checkVersion(type, version, api);
  const resourceVersion = naturalAt(o, 'resource_version');
  const args = (o['args'] === undefined ? {} : o['args']) as Json;
  return {
    type, args, api,
    ...(version !== undefined ? { version } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
  };
}

// The operations each API has in its version 2 (Hasura: RQLMetadataV2 of /v1/metadata and
// RQLQueryV2 of /v1/query, tagged by `type`); every other operation exists only as version 1.
const VERSION_2: { readonly [A in ApiKind]: readonly string[] } = {
  metadata: ['replace_metadata', 'export_metadata'],
  query: ['track_table', 'set_table_custom_fields', 'track_function', 'replace_metadata'],
};
const VERSION_2_TYPE: { readonly [A in ApiKind]: string } = { metadata: 'RQLMetadataV2', query: 'RQLQueryV2' };

/**
 * `version` is 1 or 2 (Hasura's APIVersion: "expected 1 or 2, encountered 3"), and version 2 names
 * one of the operations that have a second version; otherwise the type tag is refused at `$.type`
 * in aeson's words for a tagged sum.
 */
function checkVersion(type: string, version: number, api: ApiKind): void {
  if (version !== 1 && version !== 2) throw new ApiError('parse-failed', `expected 1 or 2, encountered ${version}`, 400, ['version']);
  if (version === 2 && !VERSION_2[api].includes(type)) {
    throw new ApiError('parse-failed', `parsing ${VERSION_2_TYPE[api]} failed, expected tag field to be one of ${JSON.stringify(VERSION_2[api])}, but found tag ${JSON.stringify(type)}`, 400, ['type']);
  }
}

function naturalAt(o: Record<string, unknown>, key: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new ApiError('parse-failed', `parsing Int failed, expected a non-negative integer, but encountered ${jsonKind(v)}`, 400, [key]);
  }
  return v;
}

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
  const resourceVersion = naturalAt(o, 'resource_version');
  const args = (o['args'] === undefined ? {} : o['args']) as Json;
  return {
    type, args, api,
    ...(version !== undefined ? { version } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
  };
}

function naturalAt(o: Record<string, unknown>, key: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new ApiError('parse-failed', `parsing Int failed, expected a non-negative integer, but encountered ${jsonKind(v)}`, 400, [key]);
  }
  return v;
}

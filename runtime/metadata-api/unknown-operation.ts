// The refusal of an operation type an API does not have, in Hasura's words; the server's metadata
// API and the compiler's operations both answer it.

import { ApiError } from '../errors/index.js';
import type { ApiKind } from './contract.js';

// The backends a metadata command's prefix names, with the name Hasura gives each in its words
// (`toTxt` of its BackendType).
const BACKEND_NAMES: { readonly [prefix: string]: string } = { pg: 'postgres', citus: 'citus', cockroach: 'cockroach', mssql: 'mssql', bigquery: 'bigquery' };

/**
 * An operation type the API does not know. On /v1/metadata it is refused as Hasura's parser of
 * the request refuses it (Server/API/Metadata.hs, RQLMetadataV1's FromJSON): the text up to the
 * first `_` names a backend, or the whole type is unknown ("unknown metadata command "x"; "p"
 * was not recognized as a valid backend name"), else the rest is unknown for that backend; the
 * failure is the request's (path `$`, `$.args[i]` in a bulk), not its `type` key's.
 */
export function unknownOperation(type: string, api: ApiKind): ApiError {
  if (api !== 'metadata') return new ApiError('parse-failed', `unknown query type "${type}"`, 400, ['type']);
  const cut = type.indexOf('_');
  const prefix = cut < 0 ? type : type.slice(0, cut);
  const backend = Object.hasOwn(BACKEND_NAMES, prefix) ? BACKEND_NAMES[prefix] : undefined;
  const message = backend === undefined
    ? `unknown metadata command ${JSON.stringify(type)}; ${JSON.stringify(prefix)} was not recognized as a valid backend name`
    : `unknown metadata command ${JSON.stringify(cut < 0 ? '' : type.slice(cut + 1))} for backend ${backend}`;
  return new ApiError('parse-failed', message, 400, []);
}

// The refusal of an operation type the API does not have, in Hasura's words (Server/API/Metadata.hs,
// `FromJSON RQLMetadataV1`): a type that is not a generic command is split at its first `_` into a
// backend prefix and a command; an unknown prefix and an unknown command of a known backend are
// told apart. The parser fails at the top of the body, so the path is `$`, not `$.type`.

import { ApiError } from '../errors/index.js';
import type { ApiKind } from './contract.js';

// Hasura's backend names (`backendSourceKindFromText`) and how it prints each (`toTxt`).
const BACKENDS: { readonly [prefix: string]: string } = {
  pg: 'postgres', citus: 'citus', cockroach: 'cockroach', mssql: 'mssql', bigquery: 'bigquery',
};

/** The `parse-failed` error for a `type` that `api` does not know. */
export function unknownOperation(type: string, api: ApiKind): ApiError {
  if (api === 'query') return new ApiError('parse-failed', `unknown query type ${JSON.stringify(type)}`, 400, ['type']);
  const cut = type.indexOf('_');
  const prefix = cut < 0 ? type : type.slice(0, cut);
  const backend = Object.hasOwn(BACKENDS, prefix) ? BACKENDS[prefix] : undefined;
  const message = backend === undefined
    ? `unknown metadata command ${JSON.stringify(type)}; ${JSON.stringify(prefix)} was not recognized as a valid backend name`
    : `unknown metadata command ${JSON.stringify(type.slice(cut + 1))} for backend ${backend}`;
  return new ApiError('parse-failed', message, 400, []);
}

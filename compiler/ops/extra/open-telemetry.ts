// set_opentelemetry_config and set_opentelemetry_status (Hasura v2.18+): the `opentelemetry`
// section of the metadata, checked by the reader the compile uses before anything is stored.

import { ApiError, asObject, formatPath, isObject } from '../../../runtime/errors/index.js';
import type { Json } from '../../metadata/index.js';
import { readOpenTelemetry } from '../../model/index.js';
import type { OpHandler } from '../types.js';
import { changed, withSetting } from './document.js';

// Empty args remove the configuration (what Hasura's console sends to delete it).
export const setOpenTelemetryConfig: OpHandler = (input) => {
  const path = input.api === 'metadata' ? ['args'] : [];
  const args = asObject(input.args, path);
  const value = Object.keys(args).length === 0 ? undefined : (args as Json);
  readOpenTelemetry(value, path);
  return changed(withSetting(input.metadata, 'opentelemetry', value));
};

// Only `status` changes; the rest of the configuration is kept (and must make sense enabled).
export const setOpenTelemetryStatus: OpHandler = (input) => {
  const path = input.api === 'metadata' ? ['args'] : [];
  if (input.args !== 'enabled' && input.args !== 'disabled') {
    throw new ApiError('parse-failed', `expected "enabled" or "disabled", but encountered ${JSON.stringify(input.args)}`, 400, path);
  }
  const current = isObject(input.metadata.opentelemetry) ? input.metadata.opentelemetry : {};
  const value = { ...current, status: input.args } as Json;
  try {
    readOpenTelemetry(value, ['opentelemetry']);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw new ApiError(e.code, `cannot set the status to ${input.args}: at ${formatPath(e.path)} of the configuration: ${e.message}`, 400, path);
  }
  return changed(withSetting(input.metadata, 'opentelemetry', value));
};

// What every operation family of the metadata API is given (the class in api.ts builds it).

import type { ApiExtension, ApiKind } from './contract.js';
import type { Sources } from './sources.js';
import type { MetadataApiOptions, ServedState } from './state.js';

/** The options, the sources, what is served now, and the extension that answers an operation. */
export interface ApiContext {
  readonly opts: MetadataApiOptions;
  readonly sources: Sources;
  served(): ServedState;
  extensionFor(type: string, api: ApiKind): ApiExtension | undefined;
}

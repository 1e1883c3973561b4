// Types of scripts/bigquery/values.mjs used by tests.
import type { ZetaTypeProto } from './zetasql.mjs';

export function typeOfField(f: { readonly name: string; readonly type: string; readonly mode?: string }): ZetaTypeProto;

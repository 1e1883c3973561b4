// GET /api/swagger/json (admin): an OpenAPI 3 document of the REST endpoints served now
// (reference/endpoints.md), one operation per endpoint and method, its variables as parameters.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthOptions } from '../auth/index.js';
import type { PersistedQueryModel, RestEndpointModel } from '../bundle/index.js';
import { handleAdminRead } from './admin-read.js';
import type { GraphQLEngine } from './options.js';

type Schema = { readonly [k: string]: unknown };

/** GET /api/swagger/json: admin only, like the other management reads. */
export function handleSwagger(req: IncomingMessage, res: ServerResponse, engine: GraphQLEngine, auth: AuthOptions): Promise<void> {
  return handleAdminRead(req, res, auth, () => swaggerDocument(engine.restEndpoints?.() ?? [], (c, q) => engine.storedQuery?.(c, q)));
}

/** The OpenAPI 3.0 document of these endpoints; paths sorted, `:name` segments as `{name}`. */
export function swaggerDocument(endpoints: readonly RestEndpointModel[],
  storedQuery: (collection: string, name: string) => PersistedQueryModel | undefined): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const e of endpoints) {
    const path = `/api/rest/${e.url.split('/').map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`;
    const stored = storedQuery(e.collection, e.query);
    for (const method of e.methods) (paths[path] ??= {})[method.toLowerCase()] = operation(e, method, path, stored);
  }
  const sorted = Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]!]));
  return {
    openapi: '3.0.0',
    info: { title: 'Rest Endpoints', description: 'This OpenAPI specification is generated from the REST endpoints of the metadata.', version: '' },
    paths: sorted,
    components: {},
  };
}

function operation(e: RestEndpointModel, method: string, path: string, stored: PersistedQueryModel | undefined): Schema {
  const inPath = new Set(e.url.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1)));
  const variables = stored?.variables ?? [];
  const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const parameters: Schema[] = [
    ...[...inPath].map((name) => ({ name, in: 'path', required: true, schema: typeSchema(typeOf(variables, name)) })),
    ...(withBody ? [] : variables.filter((v) => !inPath.has(v.name))
      .map((v) => ({ name: v.name, in: 'query', required: v.type.endsWith('!'), schema: typeSchema(v.type) }))),
  ];
  const bodyVars = withBody ? variables.filter((v) => !inPath.has(v.name)) : [];
  const description = [e.comment, stored ? `The GraphQL query of this endpoint:\n\`\`\`graphql\n${stored.query}\n\`\`\`` : null]
    .filter((x): x is string => x !== null && x !== '').join('\n\n');
  return {
    summary: e.name,
    ...(description ? { description } : {}),
    parameters,
    ...(bodyVars.length > 0 ? { requestBody: { content: { 'application/json': { schema: {
      type: 'object',
      properties: Object.fromEntries(bodyVars.map((v) => [v.name, typeSchema(v.type)])),
      required: bodyVars.filter((v) => v.type.endsWith('!')).map((v) => v.name),
    } } } } } : {}),
    responses: { 200: { description: `Responses for ${method} ${path}` } },
  };
}

function typeOf(variables: PersistedQueryModel['variables'], name: string): string {
  return variables.find((v) => v.name === name)?.type ?? 'String';
}

// A GraphQL variable type as a JSON schema: lists as arrays, the built-in and numeric scalars by kind.
function typeSchema(type: string): Schema {
  const t = type.endsWith('!') ? type.slice(0, -1) : type;
  if (t.startsWith('[') && t.endsWith(']')) return { type: 'array', items: typeSchema(t.slice(1, -1)) };
  switch (t) {
    case 'Int': case 'smallint': case 'bigint': case 'int2': case 'int4': case 'int8': return { type: 'integer' };
    case 'Float': case 'numeric': case 'float4': case 'float8': case 'real': return { type: 'number' };
    case 'Boolean': return { type: 'boolean' };
    case 'uuid': return { type: 'string', format: 'uuid' };
    case 'json': case 'jsonb': return {};
    default: return { type: 'string' };
  }
}

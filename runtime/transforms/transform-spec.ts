// The request_transform / response_transform objects of metadata (reference/kriti.md §7), read
// into typed values with every template parsed. A wrong shape or a template that does not parse
// is 400 `parse-failed` at the offending key, worded as Hasura's aeson parsers word it; a body
// template's parse error carries Kriti's message ("Unexpected token '$body'.") at
// `...body.template` (corpus: v1/metadata/test_webhook_transform_bad_parse).

import { ApiError, jsonKind, type JsonPath } from '../errors/index.js';
import { parseStringTemplate, parseTemplate, type Parsed, type Template } from './kriti/index.js';

/** How the body changes. `form-object` is v1's body template under content_type form-urlencoded. */
export type BodyTransform =
  | { readonly kind: 'transform'; readonly template: Template }
  | { readonly kind: 'remove' }
  | { readonly kind: 'form'; readonly fields: readonly (readonly [string, Template])[] }
  | { readonly kind: 'form-object'; readonly template: Template };

/** How the query string changes: key/value templates (null: a key with no value) or one string template. */
export type QueryParamsTransform =
  | { readonly kind: 'pairs'; readonly pairs: readonly (readonly [Template, Template | null])[] }
  | { readonly kind: 'string'; readonly template: Template };

/** Headers to drop (by name, any case) and headers to append (value templates). */
export interface HeadersTransform {
  readonly add: readonly (readonly [string, Template])[];
  readonly remove: readonly string[];
}

/** A parsed request_transform. An absent part leaves that part of the request as it is. */
export interface RequestTransformation {
  readonly version: 1 | 2;
  readonly templateEngine: 'Kriti';
  readonly method?: string;
  readonly url?: Template;
  readonly body?: BodyTransform;
  readonly queryParams?: QueryParamsTransform;
  readonly requestHeaders?: HeadersTransform;
  /** v1 only: the content type the body is sent as (sets the content-type header). */
  readonly contentType?: string;
}

/** A parsed response_transform. */
export interface ResponseTransformation {
  readonly version: 1 | 2;
  readonly templateEngine: 'Kriti';
  readonly body?: BodyTransform;
}

type Obj = { readonly [key: string]: unknown };
const FORM = 'application/x-www-form-urlencoded';

function failed(path: JsonPath, message: string): ApiError {
  return new ApiError('parse-failed', message, 400, path);
}

function object(v: unknown, path: JsonPath, parser: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw failed(path, `parsing ${parser} failed, expected Object, but encountered ${jsonKind(v)}`);
  }
  return v as Obj;
}

function text(v: unknown, path: JsonPath): string {
  if (typeof v !== 'string') throw failed(path, `parsing Text failed, expected String, but encountered ${jsonKind(v)}`);
  return v;
}

/** A key that is present and not null (aeson's `.:?` reads null as absent). */
function present(o: Obj, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== null && o[key] !== undefined;
}

function template(parsed: Parsed, path: JsonPath): Template {
  if (parsed.kind === 'error') throw failed(path, parsed.error.message);
  return parsed.template;
}

function bodyTemplate(v: unknown, path: JsonPath): Template {
  return template(parseTemplate(text(v, path)), path);
}

function stringTemplate(v: unknown, path: JsonPath): Template {
  return template(parseStringTemplate(text(v, path)), path);
}

function version(o: Obj, path: JsonPath): 1 | 2 {
  if (!present(o, 'version')) return 1;
  const v = o.version;
  if (typeof v !== 'number') throw failed([...path, 'version'], `parsing Int failed, expected Number, but encountered ${jsonKind(v)}`);
  if (v !== 1 && v !== 2) throw failed(path, `expected 1 or 2, encountered ${v}`);
  return v;
}

function templateEngine(o: Obj, path: JsonPath): 'Kriti' {
  if (!present(o, 'template_engine')) return 'Kriti';
  const v = text(o.template_engine, [...path, 'template_engine']);
  if (v !== 'Kriti') throw failed([...path, 'template_engine'], `expected one of the tags ['Kriti'], but found tag '${v}'`);
  return 'Kriti';
}

/** v2 body: `{action: transform|remove|x_www_form_urlencoded, template?, form_template?}`. */
function bodyV2(v: unknown, path: JsonPath): BodyTransform {
  const o = object(v, path, 'BodyTransformFn');
  const action = present(o, 'action') ? text(o.action, [...path, 'action']) : undefined;
  switch (action) {
    case 'transform':
      if (!present(o, 'template')) throw failed(path, "the key 'template' was not present");
      return { kind: 'transform', template: bodyTemplate(o.template, [...path, 'template']) };
    case 'remove':
      return { kind: 'remove' };
    case 'x_www_form_urlencoded': {
      if (!present(o, 'form_template')) throw failed(path, "the key 'form_template' was not present");
      const form = object(o.form_template, [...path, 'form_template'], 'HashMap');
      // Fields keep the order written: the corpus shows `foo=bar&baz=world` for keys foo, baz
      // (corpus: v1/metadata/test_webhook_transform_success_form_urlencoded).
      const fields = Object.entries(form).map(([k, t]) => [k, stringTemplate(t, [...path, 'form_template', k])] as const);
      return { kind: 'form', fields };
    }
    case undefined:
      throw failed(path, "the key 'action' was not present");
    default:
      throw failed(path, 'invalid transform action');
  }
}

function body(o: Obj, ver: 1 | 2, path: JsonPath, contentType: string | undefined): BodyTransform | undefined {
  if (!present(o, 'body')) return undefined;
  const at = [...path, 'body'];
  if (ver === 2) return bodyV2(o.body, at);
  const t = bodyTemplate(o.body, at);
  return contentType === FORM ? { kind: 'form-object', template: t } : { kind: 'transform', template: t };
}

function queryParams(v: unknown, path: JsonPath): QueryParamsTransform {
  if (typeof v === 'string') return { kind: 'string', template: stringTemplate(v, path) };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw failed(path, 'Invalid query parameter');
  const pairs = Object.entries(v as Obj).map(([k, t]) => [
    stringTemplate(k, path),
    t === null ? null : stringTemplate(t, [...path, k]),
  ] as const);
  return { kind: 'pairs', pairs };
}

function headers(v: unknown, path: JsonPath): HeadersTransform {
  const o = object(v, path, 'HeadersTransformFn');
  const add = present(o, 'add_headers') ? object(o.add_headers, [...path, 'add_headers'], 'HashMap') : {};
  const removeRaw = present(o, 'remove_headers') ? o.remove_headers : [];
  if (!Array.isArray(removeRaw)) {
    throw failed([...path, 'remove_headers'], `parsing [] failed, expected Array, but encountered ${jsonKind(removeRaw)}`);
  }
  // Added headers go out sorted by name, as the corpus shows `content-type` before `foo` for
  // `{"foo": ..., "content-type": ...}` (corpus: v1/metadata/test_webhook_transform_success).
  const names = Object.keys(add).sort();
  return {
    add: names.map((k) => [k, stringTemplate(add[k], [...path, 'add_headers', k])] as const),
    remove: removeRaw.map((n, i) => text(n, [...path, 'remove_headers', i])),
  };
}

/** Reads a request_transform found at `path`. Throws a parse-failed ApiError. */
export function parseRequestTransform(v: unknown, path: JsonPath): RequestTransformation {
  const o = object(v, path, 'RequestTransform');
  const ver = version(o, path);
  const contentType = ver === 1 && present(o, 'content_type') ? text(o.content_type, [...path, 'content_type']) : undefined;
  const out: { -readonly [K in keyof RequestTransformation]: RequestTransformation[K] } = {
    version: ver,
    templateEngine: templateEngine(o, path),
  };
  if (present(o, 'method')) out.method = text(o.method, [...path, 'method']);
  if (present(o, 'url')) out.url = stringTemplate(o.url, [...path, 'url']);
  const b = body(o, ver, path, contentType);
  if (b) out.body = b;
  if (present(o, 'query_params')) out.queryParams = queryParams(o.query_params, [...path, 'query_params']);
  if (present(o, 'request_headers')) out.requestHeaders = headers(o.request_headers, [...path, 'request_headers']);
  if (contentType !== undefined) out.contentType = contentType;
  return out;
}

/** Reads a response_transform found at `path`. Throws a parse-failed ApiError. */
export function parseResponseTransform(v: unknown, path: JsonPath): ResponseTransformation {
  const o = object(v, path, 'ResponseTransform');
  const ver = version(o, path);
  const b = body(o, ver, path, undefined);
  return { version: ver, templateEngine: templateEngine(o, path), ...(b ? { body: b } : {}) };
}

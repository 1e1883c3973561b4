/** Kriti templates: parse, run, the function library and the error shape. */
export * from './kriti/index.js';
/** The request_transform / response_transform metadata objects, parsed with their templates. */
export {
  parseRequestTransform, parseResponseTransform, type RequestTransformation, type ResponseTransformation,
  type BodyTransform, type QueryParamsTransform, type HeadersTransform,
} from './transform-spec.js';
/** Applying a request transform to an outgoing request. */
export {
  applyRequestTransform, requestContext, type HttpRequest, type RequestBody, type RequestContext,
  type TransformError, type TransformationError, type TransformOutcome,
} from './request-transform.js';
/** Applying a response transform to a webhook's reply. */
export { applyResponseTransform, type ResponseContext, type ResponseOutcome } from './response-transform.js';
/** URL helpers: a URL's query pairs, its text without the query, absolute-URL check. */
export { queryPairs, withoutQuery, withQuery, isAbsoluteUrl, type QueryPair } from './http-text.js';

// Types of scripts/console-fetcher.mjs for the TypeScript tests.

/** What GraphiQL hands a fetcher. */
export interface FetcherParams {
  readonly query: string;
  readonly operationName?: string | null;
  readonly variables?: Record<string, unknown> | null;
}

/** A fetcher's answer: one result, or results one after another (a subscription). */
export type FetcherResult = Promise<unknown | AsyncIterableIterator<unknown>>;

export function isSubscription(params: FetcherParams, documentAST?: unknown): boolean;
export function webSocketUrl(location: { protocol: string; host: string }, endpoint: string): string;
export function createKilnFetcher(o: {
  endpoint: string;
  wsUrl: string;
  WebSocketImpl: new (url: string, protocol: string) => unknown;
  fetchImpl: typeof fetch;
}): (params: FetcherParams, options?: { headers?: Record<string, string>; documentAST?: unknown }) => FetcherResult;

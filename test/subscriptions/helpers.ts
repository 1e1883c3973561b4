// A real Kiln server with subscriptions on 127.0.0.1 (compiled in process against a live
// database, the driver's statements counted) and a small WebSocket client for both protocols.
import WebSocket from 'ws';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';
import type { Authenticator } from '../../runtime/auth/index.js';
import type { SubscriptionSettings } from '../../runtime/subscriptions/index.js';

export interface SubsServer {
  readonly wsUrl: string;
  /** Multiplexed statements the driver ran since the start (or the last reset). */
  statements(): string[];
  /** Every statement the engine's driver ran since the start (or the last reset). */
  allStatements(): string[];
  resetStatements(): void;
  close(): Promise<void>;
}

export async function startSubsServer(o: { metadata: unknown; databaseUrl: string; adminSecret?: string;
  settings?: Partial<SubscriptionSettings>; authenticators?: readonly Authenticator[];
  /** Gives the service the source's driver, so the change feed can run (when settings.changeFeed is not false). */
  changeFeed?: boolean; log?: (line: string) => void }): Promise<SubsServer> {
  const parsed = parseMetadata(o.metadata);
  if (!parsed.value) throw new Error(`test metadata is invalid: ${JSON.stringify(parsed.errors)}`);
  const inner = createPgDriver({ url: o.databaseUrl, max: 4 });
  const seen: string[] = [];
  const driver: Driver = { ...inner, query: (text, params, co) => { seen.push(text); return inner.query(text, params, co); },
    queryText: (text, params, ...rest) => { seen.push(text); return inner.queryText(text, params, ...rest); },
    runScript: (text, co) => { seen.push(text); return inner.runScript(text, co); } };
  const introspection = { default: await introspectPostgres(inner) };
  const bundle = await buildBundle({ metadata: parsed.value, introspection, engineVersion: 'test' });
  if (bundle.inconsistencies.length) throw new Error(`inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver });
  const server = createServer({
    engine, version: 'test', adminSecret: o.adminSecret ?? null, consoleEnabled: false, authenticators: o.authenticators ?? [],
    subscriptions: { engine: () => engine, settings: { liveRefetchMs: 100, streamRefetchMs: 100, ...o.settings }, log: o.log ?? (() => undefined),
      ...(o.changeFeed ? { sources: () => new Map([['default', inner]]) } : {}) },
  });
  const { port } = await server.listen(0, '127.0.0.1');
  return {
    wsUrl: `ws://127.0.0.1:${port}/v1/graphql`,
    statements: () => seen.filter((t) => t.includes('unnest(')),
    allStatements: () => [...seen],
    resetStatements: () => { seen.length = 0; },
    async close() {
      await server.close();
      await inner.close();
    },
  };
}

export type Msg = { type: string; id?: string; payload?: unknown };

/** A WebSocket client that queues every message it receives. */
export class Client {
  readonly messages: Msg[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  private started = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      this.messages.push(JSON.parse(d.toString()) as Msg);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static async open(url: string, protocol: 'graphql-transport-ws' | 'graphql-ws', headers?: Record<string, string>): Promise<Client> {
    const ws = new WebSocket(url, protocol, headers ? { headers } : {});
    const c = new Client(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return c;
  }

  send(m: unknown): void {
    this.ws.send(JSON.stringify(m));
  }

  /** Sends connection_init with these headers and waits for the ack. */
  async init(headers: Record<string, string>): Promise<void> {
    this.send({ type: 'connection_init', payload: { headers } });
    await this.next((m) => m.type === 'connection_ack');
  }

  /** The first unconsumed message matching `pred` (removed from the queue), waiting up to `ms`. */
  async next(pred: (m: Msg) => boolean = () => true, ms = 3000): Promise<Msg> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.messages.findIndex(pred);
      if (i >= 0) return this.messages.splice(i, 1)[0]!;
      if (this.closed) throw new Error(`socket closed (${this.closed.code} ${this.closed.reason}) while waiting`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; queue: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(t); resolve(); });
      });
    }
  }

  /** Starts `query` (graphql-ws `start`) under a new id; its first message's type and payload. */
  async firstAnswer(query: string): Promise<{ type: string; payload: unknown }> {
    const id = `first-${++this.started}`;
    this.send({ type: 'start', id, payload: { query } });
    const m = await this.next((x) => x.id === id);
    return { type: m.type, payload: m.payload };
  }

  /** Messages for operation `id` that carry results (`next` / `data`). */
  results(id: string): Msg[] {
    return this.messages.filter((m) => m.id === id && (m.type === 'next' || m.type === 'data'));
  }

  async waitClosed(ms = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('socket not closed');
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.closed;
  }

  close(): void {
    this.ws.close();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

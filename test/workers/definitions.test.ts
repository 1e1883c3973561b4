// The event triggers of a metadata document, typed, with Hasura's defaults filled in.

import { describe, expect, it } from 'vitest';
import type { Json } from '../../runtime/bundle/index.js';
import { eventTriggersOf, eventTriggersOfSource } from '../../runtime/workers/definitions.js';

const md: Json = {
  version: 3,
  sources: [
    { name: 'default', kind: 'postgres', tables: [
      { table: { schema: 'public', name: 'author' }, event_triggers: [
        { name: 'full', definition: { insert: { columns: '*' }, update: { columns: ['name'], payload: ['id', 'name'] }, enable_manual: true },
          retry_conf: { num_retries: 3, interval_sec: 5, timeout_sec: 30 }, webhook_from_env: 'HOOK',
          headers: [{ name: 'a', value: '1' }, { name: 'b', value_from_env: 'B' }], request_transform: { url: 'x' }, trigger_on_replication: true },
        { name: 'bare', definition: { delete: { columns: '*' } }, webhook: 'http://h' },
      ] },
      { table: { schema: 's', name: 'plain' } },
    ] },
    { name: 'other', kind: 'postgres', tables: [{ table: { schema: 'public', name: 'x' }, event_triggers: [{ name: 'o', definition: {}, webhook: 'http://o' }] }] },
  ],
};

describe('eventTriggersOf', () => {
  it('reads every trigger with its source and table, filling defaults', () => {
    const all = eventTriggersOf(md);
    expect(all.map((t) => `${t.source}/${t.table.schema}.${t.table.name}/${t.name}`)).toEqual(['default/public.author/full', 'default/public.author/bare', 'other/public.x/o']);
    expect(all[0]).toEqual({
      source: 'default', table: { schema: 'public', name: 'author' }, name: 'full',
      definition: { insert: { columns: '*' }, update: { columns: ['name'], payload: ['id', 'name'] }, enable_manual: true },
      retry_conf: { num_retries: 3, interval_sec: 5, timeout_sec: 30 }, webhook_from_env: 'HOOK',
      headers: [{ name: 'a', value: '1' }, { name: 'b', value_from_env: 'B' }], request_transform: { url: 'x' }, trigger_on_replication: true,
    });
    expect(all[1]).toEqual({
      source: 'default', table: { schema: 'public', name: 'author' }, name: 'bare', definition: { delete: { columns: '*' }, enable_manual: false },
      retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 }, webhook: 'http://h', headers: [], trigger_on_replication: false,
    });
  });

  it('answers nothing for a document without triggers, and one source on request', () => {
    expect(eventTriggersOf({ version: 3, sources: [] })).toEqual([]);
    expect(eventTriggersOf(null)).toEqual([]);
    expect(eventTriggersOfSource(md, 'other').map((t) => t.name)).toEqual(['o']);
  });
});

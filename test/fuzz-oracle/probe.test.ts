import { it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';
import { startKiln } from '../helpers/kiln.js';
import { fixtureMetadata, fixtureSql } from './fixture.js';
it('probe', async () => {
  const db = await createTestDatabase('fuzzoracle', fixtureSql());
  const kiln = await startKiln({ metadata: fixtureMetadata(), databaseUrl: db.url });
  for (const levels of [1, 2, 3, 4, 5]) {
    const frags = [`fragment F0 on article { id title }`];
    for (let i = 1; i <= levels; i++) frags.push(`fragment F${i} on article { ...F${i - 1} a: author { articles { ...F${i - 1} } } }`);
    const query = `{ article { ...F${levels} } }\n${frags.join('\n')}`;
    let t = performance.now();
    const ex = await kiln.post('/v1/graphql/explain', JSON.stringify({ query: { query }, user: { 'x-svc-role': 'admin' } }));
    const plan = JSON.parse(ex.text);
    const sqlText = plan[0]?.sql ?? '';
    const tp = performance.now() - t;
    t = performance.now();
    const r = await kiln.post('/v1/graphql', JSON.stringify({ query }));
    console.log(levels, 'explain ms', Math.round(tp), 'sql chars', sqlText.length, 'subqueries', (sqlText.match(/SELECT/g) ?? []).length, 'run ms', Math.round(performance.now() - t), 'answer chars', r.text.length);
  }
  await kiln.close(); await db.drop();
}, 600000);

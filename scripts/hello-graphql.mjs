// The GraphQL server Hasura's test harness runs at localhost:5000/hello-graphql, which some
// conformance suites name as a remote schema: `type Query { hello(arg: String = "world"): String }`,
// on the loopback addresses only. Started by scripts/conformance.mjs as a child process (the
// runner is run synchronously there, so a server in that process could not answer); prints
// "ready" once listening. A port already taken is left to whoever holds it.
import { helpOnRequest } from './usage.mjs';
import { createServer } from 'node:http';
import { buildSchema, graphql } from 'graphql';

helpOnRequest(import.meta.url);

const schema = buildSchema('type Query { hello(arg: String = "world"): String }');
const rootValue = { hello: ({ arg }) => `Hello ${arg}` };
let listening = 0;
for (const host of ['127.0.0.1', '::1']) {
  const s = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      if (req.url !== '/hello-graphql') { res.writeHead(404).end(); return; }
      let body;
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { res.writeHead(400).end(); return; }
      const out = await graphql({ schema, source: String(body.query ?? ''), variableValues: body.variables ?? null, rootValue });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  const ok = await new Promise((done) => { s.once('error', () => done(false)); s.listen(5000, host, () => done(true)); });
  if (ok) listening++;
}
console.log(listening > 0 ? 'ready' : 'port 5000 taken');
// Ends with its parent.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));

// A TCP port nothing listens on now (the scripts start servers on it).
import { createServer } from 'node:net';

/** Asks the system for a free port on 127.0.0.1. */
export async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address();
  await new Promise((r) => s.close(() => r()));
  return port;
}

import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgliteDriver, type PgliteDriver } from '../drivers/index.js';
import { lockDataDir } from './data-lock.js';

/** The package's root folder (holding fixtures/), from the source tree or the built CLI. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'fixtures', 'chinook', 'metadata.json'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find the kiln package root (fixtures/chinook is missing)');
}

/** The demo fixture: a Chinook-like music store. */
export function demoFixture(): { metadata: string; schema: string; post: string } {
  const dir = join(packageRoot(), 'fixtures', 'chinook');
  return { metadata: join(dir, 'metadata.json'), schema: join(dir, 'schema.sql'), post: join(dir, 'post.sql') };
}

/** Opens the embedded database in `dataDir`, seeding it with the demo fixture on first start. */
export async function openEmbedded(dataDir: string, log: (line: string) => void): Promise<PgliteDriver> {
  const abs = resolve(dataDir);
  log(`starting embedded PostgreSQL (PGlite) in ${abs}`);
  // PGlite creates only the last folder of the path; a fresh checkout has no .kiln yet.
  await mkdir(dirname(abs), { recursive: true });
  const lock = lockDataDir(abs, log);
  let opened: PgliteDriver;
  try {
    opened = await createPgliteDriver({ dataDir: abs });
  } catch (e) {
    lock.release();
    throw e;
  }
  const driver: PgliteDriver = { ...opened, close: async () => { try { await opened.close(); } finally { lock.release(); } } };
  const seeded = await driver.query(`SELECT to_regclass('public.artist') IS NOT NULL`);
  if (seeded.rows[0]?.[0] !== true) {
    log('first start: loading the demo data (Chinook music store)');
    const fx = demoFixture();
    await driver.exec(await readFile(fx.schema, 'utf8'));
    await driver.exec(await readFile(fx.post, 'utf8'));
  }
  return driver;
}

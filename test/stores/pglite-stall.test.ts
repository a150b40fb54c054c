// The emulator on a PGlite data directory of a few thousand rules, asked for a list whose regex
// explodes in PostgreSQL's backtracking engine (14.6 s over 23k rules when it was pushed down,
// with every other request of the process waiting): the list answers what the memory store
// answers, and health checks sent meanwhile are answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '@listkit/service';
import { afterAll, beforeAll, expect, it } from 'vitest';

const RULES = 3_000;
const REGION_PATH = '/compute/v1/projects/p/regions/us-east1/forwardingRules';
const HEADERS = { authorization: 'Bearer t' };
const HOSTILE = ['description eq "(.?){200}.{200}"', 'description eq "(a*)*b"'];

const seed = {
  forwardingRules: Array.from({ length: RULES }, (_, i) => ({
    project: 'p',
    region: 'us-east1',
    rule: {
      name: `rule-${String(i).padStart(5, '0')}`,
      // Some longer than 200 characters, so the first hostile pattern matches a few.
      description: i % 100 === 0 ? 'x'.repeat(420) : `rule number ${i} of the stall test`,
      IPAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      IPProtocol: 'TCP',
      portRange: '80',
    },
  })),
};

const work = mkdtempSync(join(tmpdir(), 'listkit-stall-'));
let memory: { emulator: Emulator; url: string };
let pglite: { emulator: Emulator; url: string };

beforeAll(async () => {
  const open = async (options: { dataDir?: string }) => {
    const emulator = await createEmulator({ ...options, seed });
    return { emulator, url: await emulator.listen(0) };
  };
  memory = await open({});
  pglite = await open({ dataDir: join(work, 'data') });
});

afterAll(async () => {
  await memory?.emulator.close();
  await pglite?.emulator.close();
  rmSync(work, { recursive: true, force: true });
});

/** Every page of a list, followed to the end. */
async function walk(base: string, filter: string): Promise<string[]> {
  const names: string[] = [];
  let pageToken = '';
  do {
    const query = new URLSearchParams({ filter, maxResults: '500', pageToken });
    const response = await fetch(`${base}${REGION_PATH}?${query}`, { headers: HEADERS });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    for (const item of body.items ?? []) names.push(item.name);
    pageToken = body.nextPageToken ?? '';
  } while (pageToken);
  return names;
}

it.each(HOSTILE)('answers %s as the memory store does, and health meanwhile', async (filter) => {
  const health: number[] = [];
  let listing = true;
  const probe = (async () => {
    // At least one health check, then more while the list runs.
    do {
      health.push((await fetch(`${pglite.url}/_listkit/health`)).status);
    } while (listing);
  })();
  const names = await walk(pglite.url, filter).finally(() => {
    listing = false;
  });
  await probe;
  expect(names).toEqual(await walk(memory.url, filter));
  expect(health.every((status) => status === 200)).toBe(true);
});

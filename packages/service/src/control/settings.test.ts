import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createEmulator } from '../emulator.js';

// The control plane's settings outlive a restart on a data directory.

const work = mkdtempSync(join(tmpdir(), 'listkit-settings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const control = (method: string, path: string, body?: unknown) =>
  new Request(`http://emulator/_listkit${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

it('keeps the operation policy, clock offset and faults across a restart on a data directory', async () => {
  const dataDir = join(work, 'data');
  const first = await createEmulator({ dataDir });
  await first.fetch(control('PUT', '/operations/policy', { mode: 'polls', polls: 3 }));
  await first.fetch(control('POST', '/clock', { advance: '3600s' }));
  await first.fetch(
    control('POST', '/faults', { method: 'compute.forwardingRules.list', status: 503 }),
  );
  await first.close();

  const second = await createEmulator({ dataDir });
  try {
    expect(await (await second.fetch(control('GET', '/operations/policy'))).json()).toEqual({
      mode: 'polls',
      polls: 3,
    });
    const ahead = second.clock.now() - Date.now();
    expect(ahead).toBeGreaterThan(3_590_000);
    expect(ahead).toBeLessThan(3_700_000);
    const faults = (await (await second.fetch(control('GET', '/faults'))).json()) as {
      faults: { method: string }[];
    };
    expect(faults.faults.map((f) => f.method)).toEqual(['compute.forwardingRules.list']);
  } finally {
    await second.close();
  }
}, 60_000);

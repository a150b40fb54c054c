import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { createEmulator } from '../emulator.js';

// The control plane's settings outlive a restart on a data directory.

const work = mkdtempSync(join(tmpdir(), 'listkit-settings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('keeps the operation policy, clock offset and faults across a restart on a data directory', async () => {
  const dataDir = join(work, 'data');
  const first = await createEmulator({ dataDir });
  await call(first, 'PUT', '/_listkit/operations/policy', { body: { mode: 'polls', polls: 3 } });
  await call(first, 'POST', '/_listkit/clock', { body: { advance: '3600s' } });
  await call(first, 'POST', '/_listkit/faults', {
    body: { method: 'compute.forwardingRules.list', status: 503 },
  });
  await first.close();

  const second = await createEmulator({ dataDir });
  try {
    expect((await call(second, 'GET', '/_listkit/operations/policy')).json).toEqual({
      mode: 'polls',
      polls: 3,
    });
    const ahead = second.clock.now() - Date.now();
    expect(ahead).toBeGreaterThan(3_590_000);
    expect(ahead).toBeLessThan(3_700_000);
    const faults = (await call(second, 'GET', '/_listkit/faults')).json as {
      faults: { method: string }[];
    };
    expect(faults.faults.map((f) => f.method)).toEqual(['compute.forwardingRules.list']);
  } finally {
    await second.close();
  }
}, 60_000);

import { describe, expect, it } from 'vitest';
import { createEmulator } from './emulator.js';

const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };

describe('createEmulator', () => {
  it('reset puts the operation policy back to the configured one', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 2 } });
    const put = await emulator.fetch(
      new Request('http://emulator/_listkit/operations/policy', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'immediate' }),
      }),
    );
    expect(put.status).toBe(200);
    await emulator.reset();
    const policy = await (
      await emulator.fetch(new Request('http://emulator/_listkit/operations/policy'))
    ).json();
    expect(policy).toEqual({ mode: 'polls', polls: 2 });
  });

  it('gives a Private Service Connect rule an internal address, as the VPC would', async () => {
    const emulator = await createEmulator();
    const base = 'http://emulator/compute/v1/projects/p/regions/us-central1/forwardingRules';
    const res = await emulator.fetch(
      new Request(base, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'apis',
          target: 'projects/producer/regions/us-central1/serviceAttachments/sa',
          network: 'global/networks/default',
        }),
      }),
    );
    expect(res.status).toBe(200);
    const rule = (await (
      await emulator.fetch(new Request(`${base}/apis`, { headers }))
    ).json()) as { IPAddress: string };
    expect(rule.IPAddress).toMatch(/^10\./);
  });
});

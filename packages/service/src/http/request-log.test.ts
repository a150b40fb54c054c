import { describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { createEmulator } from '../emulator.js';
import { REQUEST_LOG_LIMITS, RequestLog, type RequestRecord } from './request-log.js';

const record = (path: string, query = ''): RequestRecord => ({
  time: '2025-01-01T00:00:00Z',
  method: 'GET',
  path,
  query,
  status: 200,
  durationMs: 1,
});

describe('the request log is bounded in what each entry keeps and in all', () => {
  it('keeps oversized requests as their start, saying so, and answers GET /_listkit/requests', async () => {
    const emulator = await createEmulator({ seed: {} });
    const huge = `/compute/v1/projects/p/regions/r/forwardingRules/${'a'.repeat(1 << 20)}`;
    for (let i = 0; i < 40; i++) {
      const res = await call(emulator, 'GET', `${huge}?filter=${'b'.repeat(1 << 16)}`);
      expect(res.status).toBe(414);
    }
    const log = emulator.state.requests.list();
    expect(log).toHaveLength(40);
    for (const kept of log) {
      expect(kept.path.length).toBe(REQUEST_LOG_LIMITS.textChars);
      expect(kept.truncated?.path).toBe(huge.length);
      expect(kept.query.length).toBeLessThanOrEqual(REQUEST_LOG_LIMITS.textChars);
    }
    const listed = await call<{ requests: RequestRecord[] }>(emulator, 'GET', '/_listkit/requests');
    expect(listed.status).toBe(200);
    expect(listed.json.requests).toHaveLength(40); // the listing is logged once it has answered
    await emulator.close();
  });

  it('drops the oldest to stay under its bytes, not only its count', () => {
    const log = new RequestLog(1000, 64 * 1024);
    for (let i = 0; i < 500; i++) log.add(record(`/${'x'.repeat(2000)}`, `?i=${i}`));
    expect(log.bytes()).toBeLessThanOrEqual(64 * 1024);
    const kept = log.list();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(500);
    expect(kept.at(-1)?.query).toBe('?i=499'); // the newest stay
    log.clear();
    expect(log.list()).toEqual([]);
    expect(log.bytes()).toBe(0);
  });

  it('keeps the most recent entries up to its count', () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 5000; i++) log.add(record(`/r${i}`));
    expect(log.list().map((r) => r.path)).toEqual(['/r4997', '/r4998', '/r4999']);
  });
});

// kill -9 of a process writing to a PGlite data directory: after a restart, everything it
// acknowledged (printed after the commit) is there, and nothing is half there.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PageTokenCodec } from '@listkit/query';
import { openStore } from '@listkit/service';
import { afterAll, expect, it } from 'vitest';
import { bundleServiceModule } from '../support/bundle-service.js';

const work = mkdtempSync(join(tmpdir(), 'listkit-durability-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('keeps every acknowledged rule, operation and refund after kill -9, and nothing half', async () => {
  // The child runs the store's TypeScript sources, bundled.
  const writer = await bundleServiceModule('test/support/store-writer.ts');
  const dir = join(work, 'data');
  const child = spawn(process.execPath, [writer.file, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acknowledged = { rule: new Set<number>(), refund: new Set<number>() };
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.on('exit', (code) => reject(new Error(`the writer exited early (${code})`)));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, i] = line.split(' ');
        if (kind === 'rule' || kind === 'refund') acknowledged[kind].add(Number(i));
      }
      if (acknowledged.refund.size >= 25) {
        child.removeAllListeners('exit');
        child.on('exit', () => resolve());
        child.kill('SIGKILL');
      }
    });
  });
  writer.dispose();
  const store = await openStore(
    { kind: 'pglite', dataDir: dir },
    { pageTokens: await PageTokenCodec.create() },
  );
  try {
    const parent = { project: 'p', region: 'us-east1' };
    const rules = new Set((await store.rules.all()).map((r) => Number(r.rule.name.split('-')[1])));
    const operations = new Set(
      (await store.operations.all()).map((o) => Number(o.operation.name.split('-')[1])),
    );
    for (const i of acknowledged.rule) expect(rules.has(i), `rule ${i}`).toBe(true);
    for (const i of acknowledged.refund) {
      expect(
        (await store.orders.get('com.example', `GPA.${i}`))?.refund,
        `refund ${i}`,
      ).toBeDefined();
    }
    // A rule and its operation are one transaction: each is there with the other or not at all.
    expect([...rules].sort()).toEqual([...operations].sort());
    expect((await store.operations.byRequestId(parent, 'req-0'))?.operation.name).toBe(
      'operation-0',
    );
  } finally {
    await store.close();
  }
}, 120_000);

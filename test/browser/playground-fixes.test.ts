// The playground's repairs from a session of use (desktop, phone, keyboard, slow network), each
// checked in Chromium against the built page.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileFilter } from '@listkit/query';
import {
  createEmulator,
  type Emulator,
  forwardingRuleSchema,
  sampleForwardingRules,
} from '@listkit/service';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { mountPlayground } from '../../packages/service/src/http/playground-static.js';
import {
  dist,
  editorText,
  matchCount,
  setFilter,
  skipBrowser,
  typeFilter,
  usePlayground,
} from './harness.js';

const rules = sampleForwardingRules(300);
const matching = (filter: string) => {
  const compiled = compileFilter(filter, forwardingRuleSchema);
  return rules.filter((r) => compiled.matches(r));
};
const link = (params: Record<string, string>) => `/#${new URLSearchParams(params)}`;
const notices = (page: Page) => page.locator('#status .notice').allTextContents();

describe.skipIf(skipBrowser)('playground repairs in Chromium', { timeout: 180_000 }, () => {
  const playground = usePlayground();
  const open = (path: string, options?: Parameters<typeof playground.open>[1]) =>
    playground.open(`${playground.base()}${path}`, options);
  let emulator: Emulator | undefined;
  afterAll(() => emulator?.close());

  it('keeps the opened Examples menu inside a phone’s screen', async () => {
    const page = await open('/', { viewport: { width: 390, height: 844 } });
    await page.locator('#examples-menu > summary').click();
    const box = (await page.locator('#examples-list').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  });

  it('shows on screen what a link could not hold, and confirms copies and failures', async () => {
    const page = await open(link({ filter: 'name:web-*', pageSize: '9999', data: 'zGARBAGE' }));
    // One line says all of it, and asks for the data instead of showing another dataset.
    await expect.poll(() => notices(page)).toHaveLength(1);
    const shown = (await notices(page)).join('\n');
    expect(shown).toContain('ignored pageSize=9999');
    expect(shown).toContain('the data in this link is damaged');
    expect(shown).toContain('Paste or drop the data');
    expect(await page.locator('#dataset').inputValue()).toBe('custom');
    expect(await matchCount(page)).toBe('0 of 0 resources match');
    expect(await page.locator('#status .notice.warning').isVisible()).toBe(true);
    await page.locator('#status .notice.warning button.dismiss').click();
    await expect.poll(() => notices(page)).toHaveLength(0);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('#copy-link').click();
    await expect.poll(async () => (await notices(page)).join()).toContain('Link copied');
    await page.locator('#copy-markdown').click();
    await expect.poll(async () => (await notices(page)).join()).toContain('Markdown copied');
    await setFilter(page, 'name = (');
    await page.keyboard.press('Shift+Alt+F');
    await expect.poll(async () => (await notices(page)).join()).toContain('cannot be formatted');
    expect(await page.locator('#status .notice').last().isVisible()).toBe(true);
  });

  it('opens the syntax tree at its root, in view', async () => {
    const filter = Array.from({ length: 12 }, (_, i) => `labels.k${i} = v${i}`).join(' AND ');
    const page = await open(link({ filter }));
    const ast = page.locator('#ast');
    expect(await ast.evaluate((e) => e.scrollTop)).toBe(0);
    expect(await ast.evaluate((e) => e.scrollHeight > e.clientHeight)).toBe(true);
    const root = page.locator('.tree > li[role="treeitem"]');
    const [rootBox, astBox] = [(await root.boundingBox())!, (await ast.boundingBox())!];
    expect(rootBox.y).toBeGreaterThanOrEqual(astBox.y);
  });

  it('warns that a lower-case and is a search word, and fixes it', async () => {
    const filter = 'IPProtocol = TCP and labels.env = prod';
    const page = await open(link({ filter }));
    await expect.poll(() => matchCount(page)).toBe('0 of 300 resources match');
    expect(await page.locator('#filter-warnings').textContent()).toContain('did you mean AND?');
    expect(await page.locator('.cm-lintRange-warning').textContent()).toBe('and');
    await page.getByRole('button', { name: 'Use AND' }).click();
    expect(await editorText(page)).toBe('IPProtocol = TCP AND labels.env = prod');
    const fixed = matching('IPProtocol = TCP AND labels.env = prod').length;
    expect(fixed).toBeGreaterThan(0);
    await expect.poll(() => matchCount(page)).toBe(`${fixed} of 300 resources match`);
  });

  it('explains that region holds a URL and offers the match that works', async () => {
    const page = await open(link({ filter: 'region = us-east1' }));
    await expect
      .poll(() => page.locator('#filter-warnings').textContent())
      .toContain('region holds a URL');
    await page.getByRole('button', { name: 'Use region = "*/us-east1"' }).click();
    const expected = rules.filter((r) => String(r.region).endsWith('/us-east1')).length;
    expect(expected).toBeGreaterThan(0);
    await expect.poll(() => matchCount(page)).toBe(`${expected} of 300 resources match`);
  });

  it('says what is wrong with a page size, and offers the orderBy it meant', async () => {
    const page = await open('/');
    for (const size of ['0', '501']) {
      await page.locator('#page-size').fill(size);
      await expect
        .poll(() => page.locator('#page-size-error').textContent())
        .toContain('must be a whole number from 1 to 500');
      expect(await page.locator('#page-size-error').isVisible()).toBe(true);
    }
    await page.locator('#page-size').fill('5');
    await expect.poll(() => page.locator('#page-size-error').isVisible()).toBe(false);

    await page.locator('#order-by').fill('creationTimestmp desc');
    await expect
      .poll(() => page.locator('#order-by-error').textContent())
      .toContain("did you mean 'creationTimestamp'?");
    await page.getByRole('button', { name: 'Replace with creationTimestamp' }).click();
    expect(await page.locator('#order-by').inputValue()).toBe('creationTimestamp desc');
    await expect.poll(() => page.locator('#order-by-error').isVisible()).toBe(false);
  });

  it('fits the results table in its panel at 1280 px', async () => {
    const filter =
      'creationTimestamp > 2020-01-01T00:00:00Z AND selfLink:* AND network:* AND labels:env';
    const page = await open(link({ filter }));
    await page.waitForSelector('#results tbody tr');
    const fits = await page
      .locator('#results')
      .evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth);
    expect(fits).toBe(true);
  });

  it('keeps the last good results, marked stale, while the filter is broken', async () => {
    const page = await open(link({ filter: 'labels.env = prod' }));
    const rows = page.locator('#results tbody tr');
    await expect.poll(() => rows.count()).toBe(10);
    await typeFilter(page, 'labels.env = "prod');
    await expect.poll(() => page.locator('#results .stale-note').count()).toBe(1);
    expect(await rows.count()).toBe(10);
    expect(await page.locator('#results').getAttribute('class')).toContain('stale');
    await typeFilter(page, 'labels.env = dev');
    await expect.poll(() => page.locator('#results .stale-note').count()).toBe(0);
  });

  it('traces the table’s first row, following filter changes, with the mark on its line', async () => {
    const page = await open(link({ filter: 'labels.env = prod' }), {
      viewport: { width: 390, height: 844 },
    });
    // On a phone each match is a card, its key first.
    const firstRow = () => page.locator('#results .card .row-link').first().textContent();
    const verdict = () => page.locator('#why .verdict strong').textContent();
    await expect.poll(verdict).toBe(await firstRow());
    await setFilter(page, 'labels.env = dev AND IPProtocol = TCP');
    const devFirst = matching('labels.env = dev AND IPProtocol = TCP')
      .map((r) => r.name)
      .sort()[0];
    await expect.poll(firstRow).toBe(devFirst);
    await expect.poll(verdict).toBe(devFirst);
    for (const clause of await page.locator('#why .traced .clause').all()) {
      const mark = (await clause.locator('> .verdict-mark').boundingBox())!;
      const text = (await clause.locator('> .clause-text').boundingBox())!;
      expect(Math.abs(mark.y - text.y)).toBeLessThan(text.height);
    }
  });

  it('keeps large edited data out of the link, saying so when the link is copied', async () => {
    const page = await open('/');
    await page.locator('#data-details > summary').click();
    await page.locator('#data-text').fill(JSON.stringify(rules.slice(0, 200)));
    await page.locator('#data-apply').click();
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('200 forwarding rules (edited)');
    await expect.poll(() => page.url()).toContain('dataLeftOut=200');
    expect(page.url()).not.toContain('data=');
    // Said where the link is made, not on apply.
    expect((await notices(page)).join()).not.toContain('too large');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('#copy-link').click();
    await expect
      .poll(async () => (await notices(page)).join())
      .toMatch(/Link copied without the data: its 200 records pack to [\d.]+ KB, over the 6 KB/);
    expect((await notices(page)).join()).toContain('Download data');
    await page.locator('#data-details > summary').click();
    const download = page.waitForEvent('download');
    await page.locator('#data-download').click();
    expect((await download).suggestedFilename()).toBe('forwarding-rules.json');

    await page.locator('#data-upload').setInputFiles({
      name: 'rules.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(rules.slice(0, 5))),
    });
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('5 forwarding rules (edited)');
    await expect.poll(() => page.url()).toContain('data=');
  });

  it('shows a loading state, with nothing to press, until the script runs', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const page = await open('/', {
      noWait: true,
      before: (p) =>
        p.route('**/assets/*.js', async (route) => {
          await released;
          await route.continue();
        }),
    });
    await page.waitForSelector('#loading');
    expect(await page.locator('#loading').isVisible()).toBe(true);
    expect(await page.locator('main').getAttribute('inert')).not.toBeNull();
    expect(await page.locator('nav.actions').getAttribute('inert')).not.toBeNull();
    release();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#loading').count()).toBe(0);
    expect(await page.locator('main').getAttribute('inert')).toBeNull();
  });

  it('compares fairly: the project, edited data, an unreachable URL, numbering on page 2', async () => {
    emulator = await createEmulator({
      seed: {
        forwardingRules: rules.map((rule) => ({
          project: 'my-project',
          region: String(rule.region).split('/').pop()!,
          rule,
        })),
      },
    });
    expect(mountPlayground(emulator.app, dist)).toBe(true);
    const url = await emulator.listen(0);
    const filter = 'labels.env = prod';
    const page = await playground.open(
      `${url}/playground/#${new URLSearchParams({ filter, pageSize: '3' })}`,
    );
    await page.locator('#emulator-details > summary').click();
    const verdicts = page.locator('#emulator-result .verdict');

    // Another project: the emulator holds none of its rules, and neither does this side.
    await page.locator('#emulator-project').fill('other-project');
    await page.locator('#emulator-compare').click();
    await expect.poll(() => verdicts.first().textContent()).toContain('Page 1: the same 0 items');

    // Page 2 numbers its rows from 4.
    await page.locator('#emulator-project').fill('my-project');
    await page.locator('#emulator-compare').click();
    await expect.poll(() => verdicts.first().textContent()).toContain('Page 1: the same 3 items');
    await page.locator('#emulator-next').click();
    await expect.poll(() => verdicts.nth(1).textContent()).toContain('Page 2: the same 3 items');
    expect(
      await page
        .locator('#emulator-result table')
        .nth(1)
        .locator('tbody td:first-child')
        .allTextContents(),
    ).toEqual(['4', '5', '6']);

    // An unreachable emulator is said to be unreachable.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    playground.expectProblem(new RegExp(`ERR_CONNECTION_REFUSED|127\\.0\\.0\\.1:${port}/`));
    await page.locator('#emulator-url').fill(`http://127.0.0.1:${port}`);
    await page.locator('#emulator-compare').click();
    await expect
      .poll(() => verdicts.first().textContent())
      .toContain('The emulator could not be reached');

    // Edited data: the hint says why pages may differ.
    await page.locator('#emulator-url').fill(url);
    await page.locator('#data-details > summary').click();
    await page.locator('#data-text').fill(JSON.stringify(rules.slice(0, 10)));
    await page.locator('#data-apply').click();
    await page.locator('#emulator-compare').click();
    await expect
      .poll(() => page.locator('#emulator-result').textContent())
      .toContain('The data here is edited');
  });
});

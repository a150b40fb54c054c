// The playground in a real Chromium (Debian's `chromium`, driven by playwright-core), against the
// BUILT playground/dist: served from a node:http server on a loopback port, and from the emulator
// at /playground/ for the emulator comparison. (The README's screenshot is `pnpm screenshot`.)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFilter, ListkitError, parseFilter } from '@listkit/query';
import {
  createEmulator,
  type Emulator,
  forwardingRuleSchema,
  sampleForwardingRules,
} from '@listkit/service';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mountPlayground } from '../../packages/service/src/http/playground-static.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'playground', 'dist');

const chromiumPath = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();
const missing = !existsSync(join(dist, 'index.html'))
  ? 'playground/dist is missing: run `pnpm build` first (CI builds before testing)'
  : !chromiumPath
    ? 'chromium is not installed: apt-get install -y chromium (.ci/run installs it)'
    : undefined;
// Outside CI a missing build or browser skips these tests, saying why; in CI it fails them.
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`skipping the playground browser tests: ${missing}`);

const rules = sampleForwardingRules(300);
const matching = (filter: string) => {
  const compiled = compileFilter(filter, forwardingRuleSchema);
  return rules.filter((r) => compiled.matches(r));
};
const formatted = (filter: string) => {
  try {
    compileFilter(parseFilter(filter), forwardingRuleSchema);
  } catch (error) {
    if (error instanceof ListkitError) return error.format();
  }
  throw new Error(`${filter} is valid`);
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A static server for playground/dist on 127.0.0.1, port 0. */
function serveDist(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(dist, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(dist + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

// Generous: on a loaded 2-core CI machine, typing into a real browser is slow.
describe.skipIf(skip)('the playground in Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let server: Server;
  let base: string;
  let emulator: Emulator | undefined;
  const problems: string[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    if (missing) throw new Error(missing);
    ({ server, url: base } = await serveDist());
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    await emulator?.close();
  }, 60_000);

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    // No console errors, page errors or failed requests in any test.
    expect(problems.splice(0)).toEqual([]);
  });

  async function open(url: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    pages.push(page);
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning')
        problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    await page.goto(url);
    try {
      await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
    } catch (error) {
      throw new Error(`the page did not start: ${problems.join('; ') || String(error)}`);
    }
    return page;
  }

  const editorText = async (page: Page) => (await page.locator('.cm-content').textContent()) ?? '';
  const matchCount = (page: Page) => page.locator('#match-count').textContent();

  async function typeFilter(page: Page, text: string) {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(text);
  }

  it('loads with an example filter, highlighted, and its matches', async () => {
    const page = await open(`${base}/`);
    const filter = await editorText(page);
    expect(filter).toContain('labels.env = prod');
    await expect
      .poll(() => matchCount(page))
      .toBe(`${matching(filter).length} of 300 resources match`);
    expect(await page.locator('#style-badge').textContent()).toBe('AIP-160');
    expect(await page.locator('.cm-content .tok-field').first().textContent()).toBe('labels');
    expect(await page.locator('.cm-content .tok-keyword').first().textContent()).toBe('AND');
    expect(await page.locator('.cm-content .tok-operator').first().textContent()).toBe('=');
    expect(await page.locator('#timings').textContent()).toMatch(
      /parse \+ check \+ compile .* ms · evaluate 300 resources .* ms/,
    );
    expect(await page.locator('#explanation').textContent()).toContain('All of these hold');
  });

  it('evaluates a typed filter as you type, in both styles', async () => {
    const page = await open(`${base}/`);
    const aip = 'labels.env = prod AND IPProtocol = UDP';
    await typeFilter(page, aip);
    await expect
      .poll(() => matchCount(page))
      .toBe(`${matching(aip).length} of 300 resources match`);
    expect(await page.locator('#style-badge').textContent()).toBe('AIP-160');

    const regex = '(name eq "(api|web)-prod-.*")(IPProtocol ne "TCP")';
    await typeFilter(page, regex);
    await expect
      .poll(() => matchCount(page))
      .toBe(`${matching(regex).length} of 300 resources match`);
    expect(await page.locator('#style-badge').textContent()).toBe('regex style (RE2)');
    expect(await page.locator('.cm-content .tok-regex').first().textContent()).toBe(
      '"(api|web)-prod-.*"',
    );
    expect(matching(regex).length).toBeGreaterThan(0);

    // Shift+Alt+F prints the canonical form; Ctrl+Enter evaluates at once.
    await typeFilter(page, 'labels.env=prod   AND (IPProtocol:UDP)');
    await page.keyboard.press('Shift+Alt+F');
    expect(await editorText(page)).toBe('labels.env = prod AND (IPProtocol : UDP)');
    await page.keyboard.press('ControlOrMeta+Enter');
    expect(await matchCount(page)).toBe(`${matching(aip).length} of 300 resources match`);
  });

  it('shows a broken filter’s error where it is: squiggle, hover message, caret line, cursor', async () => {
    const page = await open(`${base}/`);
    const broken = 'name = "unterminated';
    await typeFilter(page, broken);
    const squiggle = page.locator('.cm-lintRange-error');
    // Keystrokes may come slower than the debounce: wait for the squiggle of the whole text.
    await expect.poll(() => squiggle.allTextContents()).toEqual(['"unterminated']);
    await expect.poll(() => page.locator('#filter-error').textContent()).toBe(formatted(broken));
    expect(formatted(broken)).toContain('^~~~~~~~~~~~~ unterminated string (1:8)');
    expect(await page.locator('#cursor-position').textContent()).toBe('Ln 1, Col 21');
    expect(await matchCount(page)).toBe('Fix the filter to see matches');
    expect(await page.locator('.cm-content').getAttribute('aria-invalid')).toBe('true');

    await squiggle.hover();
    await expect
      .poll(() => page.locator('.cm-tooltip-lint').textContent())
      .toContain('unterminated string (1:8)');

    // A schema problem: a misspelt field, with its suggestion.
    await typeFilter(page, 'nmae = web-*');
    await expect.poll(() => page.locator('.cm-lintRange-error').textContent()).toBe('nmae');
    expect(await page.locator('#filter-error').textContent()).toContain("did you mean 'name'?");
  });

  it('reproduces the whole state from a shared link', async () => {
    const page = await open(`${base}/`);
    const filter = 'labels.env = staging OR labels.env = dev';
    await typeFilter(page, filter);
    await page.locator('#order-by').fill('creationTimestamp desc');
    await page.locator('#page-size').fill('7');
    // Edited data: the first 40 rules.
    await page.locator('#data-details > summary').click();
    await page.locator('#data-text').fill(JSON.stringify(rules.slice(0, 40), null, 2));
    await page.locator('#data-apply').click();
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('40 forwarding rules (edited)');
    const data = rules.slice(0, 40);
    const selected = matching(filter).filter((r) => data.includes(r));
    const expected = `${selected.length} of 40 resources match`;
    const firstPage = selected
      .map((r) => ({ name: r.name, at: Date.parse(String(r.creationTimestamp)) }))
      .sort((a, b) => b.at - a.at || (a.name < b.name ? -1 : 1))
      .slice(0, 7)
      .map((r) => r.name);
    const rows = (p: Page) => p.locator('#results tbody tr td:nth-child(2)').allTextContents();
    await expect.poll(() => matchCount(page)).toBe(expected);
    await expect.poll(() => rows(page)).toEqual(firstPage);
    await expect.poll(() => page.url()).toContain('data=');
    await expect.poll(() => page.url()).toContain('pageSize=7');

    const link = page.url();
    expect(link).toContain('orderBy=creationTimestamp+desc');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('#copy-link').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const again = await open(link);
    expect(await editorText(again)).toBe(filter);
    expect(await again.locator('#order-by').inputValue()).toBe('creationTimestamp desc');
    expect(await again.locator('#page-size').inputValue()).toBe('7');
    expect(await again.locator('#data-summary').textContent()).toBe('40 forwarding rules (edited)');
    await expect.poll(() => matchCount(again)).toBe(expected);
    await expect.poll(() => rows(again)).toEqual(firstPage);
  });

  it('walks to the second page with the real page-token codec', async () => {
    const filter = 'labels.env = prod';
    const page = await open(`${base}/#${new URLSearchParams({ filter, pageSize: '10' })}`);
    const names = matching(filter)
      .map((r) => r.name)
      .sort();
    const shown = () => page.locator('#results tbody tr td:nth-child(2)').allTextContents();
    await expect.poll(shown).toEqual(names.slice(0, 10));
    expect(await page.locator('#page-token').textContent()).toMatch(/^[A-Za-z0-9_-]+/);
    expect(await page.locator('#prev-page').isDisabled()).toBe(true);

    await page.locator('#next-page').click();
    await expect.poll(shown).toEqual(names.slice(10, 20));
    expect(await page.locator('#page-info').textContent()).toContain(
      `Page 2: items 11–20 of ${names.length}`,
    );
    await page.locator('#prev-page').click();
    await expect.poll(shown).toEqual(names.slice(0, 10));
  });

  it('links the syntax tree and the text both ways, and never traps the keyboard', async () => {
    const page = await open(
      `${base}/#${new URLSearchParams({ filter: 'labels.env = prod AND NOT labels:team' })}`,
    );
    // The cursor inside `labels:team` marks its node.
    await page.locator('.cm-content').click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => page.locator('.tree li.at-cursor > .node-row .node-detail').textContent())
      .toBe('"team"');
    // Selecting a node (keyboard) highlights its text.
    const restriction = page
      .locator('.tree li[role="treeitem"]', { hasText: 'labels.env = prod' })
      .last();
    await restriction.focus();
    await expect
      .poll(() => page.locator('.cm-ast-selected').textContent())
      .toBe('labels.env = prod');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('.cm-ast-selected').textContent()).toBe('labels.env');
    // Tab leaves the editor.
    await page.locator('.cm-content').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.cm-editor') === null)).toBe(
      true,
    );
  });

  it('explains which clause made a chosen resource match or fail', async () => {
    const filter = 'labels.env = prod AND IPProtocol = UDP';
    const page = await open(`${base}/#${new URLSearchParams({ filter })}`);
    const miss = rules.find((r) => (r.labels as Record<string, string>).env !== 'prod')!;
    await page.locator('#why-name').fill(miss.name);
    await page.locator('#why-name').dispatchEvent('change');
    const why = page.locator('#why');
    await expect
      .poll(() => why.locator('.verdict').textContent())
      .toContain(`${miss.name} does not match, because`);
    expect(await why.locator('.verdict').textContent()).toContain('labels.env is exactly "prod"');
    expect(await why.locator('.decides').count()).toBe(1);
    expect(await why.textContent()).toContain(
      `labels.env is "${(miss.labels as Record<string, string>).env}"`,
    );
  });

  it('opens every example from its link', async () => {
    const page = await open(`${base}/`);
    await page.locator('#examples-menu > summary').click();
    await page.locator('a[data-example="regex-terms"]').click();
    await expect
      .poll(() => editorText(page))
      .toBe('(name eq "(api|web)-prod-.*")(IPProtocol ne "TCP")');
    await expect.poll(() => page.url()).toContain('filter=');
    const links = await page
      .locator('#examples-list a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links.length).toBeGreaterThan(20);
    expect(links.every((href) => href?.startsWith('#example='))).toBe(true);
  });

  it('compares its page with a running emulator’s, served at /playground/', async () => {
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
    const filter = 'labels.env = prod OR IPProtocol = UDP';
    const page = await open(`${url}/playground/#${new URLSearchParams({ filter, pageSize: '5' })}`);
    await page.locator('#emulator-details > summary').click();
    expect(await page.locator('#emulator-url').inputValue()).toBe(url);
    await page.locator('#emulator-compare').click();
    await expect
      .poll(() => page.locator('#emulator-result .verdict').first().textContent())
      .toContain('Page 1: the same 5 items in the same order; both have a next page.');
    await page.locator('#emulator-next').click();
    await expect
      .poll(() => page.locator('#emulator-result .verdict').nth(1).textContent())
      .toContain('Page 2: the same');
  });
});

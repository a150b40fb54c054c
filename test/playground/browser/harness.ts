// Shared by the playground's browser tests: the built playground/dist served on a loopback port,
// Debian's Chromium driven by playwright-core, pages that fail the test on any console error,
// page error or failed request, and axe-core for accessibility.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const dist = join(root, 'playground', 'dist');

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
/** Outside CI a missing build or browser skips the browser tests, saying why; in CI it fails them. */
export const skipBrowser = missing !== undefined && !process.env.CI;
if (skipBrowser) console.warn(`skipping the playground browser tests: ${missing}`);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
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

export interface OpenOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Do not wait for the page to be ready (to see it loading). */
  noWait?: boolean;
  /** Runs before navigation (to route requests). */
  before?: (page: Page) => Promise<unknown>;
}

export interface Playground {
  /** The base URL of the served build. */
  base(): string;
  open(url: string, options?: OpenOptions): Promise<Page>;
  /** Problems that the test expects (removed from the failure list). */
  expectProblem(pattern: RegExp): void;
}

/** Registers the hooks of a browser test file and returns how to open pages. */
export function usePlayground(): Playground {
  let browser: Browser;
  let server: Server;
  let base = '';
  const problems: string[] = [];
  const expected: RegExp[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    if (missing) throw new Error(missing);
    ({ server, url: base } = await serveDist());
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
  }, 60_000);

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.context().close();
    const unexpected = problems.splice(0).filter((p) => !expected.some((e) => e.test(p)));
    expected.length = 0;
    expect(unexpected).toEqual([]);
  });

  return {
    base: () => base,
    expectProblem: (pattern) => expected.push(pattern),
    async open(url, options = {}) {
      const context = await browser.newContext({
        viewport: options.viewport ?? { width: 1280, height: 900 },
        colorScheme: options.colorScheme ?? 'light',
      });
      const page = await context.newPage();
      pages.push(page);
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning')
          problems.push(`console.${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
      await options.before?.(page);
      await page.goto(url, { waitUntil: options.noWait ? 'commit' : 'load' });
      if (!options.noWait) {
        try {
          await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
        } catch (error) {
          throw new Error(`the page did not start: ${problems.join('; ') || String(error)}`);
        }
      }
      return page;
    },
  };
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's violations on the page as it is now (WCAG 2.1 A and AA rules), as readable lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(...a: unknown[]): Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; help: string; nodes: { target: string[] }[] }[];
    }
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return results.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
  });
}

export const editorText = async (page: Page) =>
  (await page.locator('.cm-content').textContent()) ?? '';
export const matchCount = (page: Page) => page.locator('#match-count').textContent();

/** Replaces the editor's text by typing, as a person does (completion popups closed after). */
export async function typeFilter(page: Page, text: string) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
  await page.keyboard.press('Escape');
}

/** Sets the editor's text at once (no typing, no completion). */
export async function setFilter(page: Page, text: string) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

// Regenerates docs/playground.png, the README's picture of the playground: serves the built
// playground/dist on a loopback port, opens it in Chromium (playwright-core driving the system's
// `chromium`), sets up a filter over the books dataset, a selected tree node and a traced row, and saves a full-page shot.
// Run with `pnpm screenshot` (it builds first). Tests never write this tracked file; this script does.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'playground', 'dist');
const output = join(root, 'docs', 'playground.png');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

if (!existsSync(join(dist, 'index.html'))) {
  console.error('playground/dist is missing: run `pnpm build` first');
  process.exit(1);
}
const executablePath = execFileSync('sh', ['-c', 'command -v chromium'], {
  encoding: 'utf8',
}).trim();

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
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({
    viewport: { width: 1440, height: 1000 },
    colorScheme: 'light',
  });
  // A dataset that is not Compute's: the page is for anyone's resources.
  const filter = 'state = PUBLISHED AND (topics:history OR pageCount > 500) AND labels.lang = en';
  const hash = new URLSearchParams({
    dataset: 'books',
    filter,
    orderBy: 'createTime desc',
    pageSize: '8',
  });
  await page.goto(`${base}/#${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#results tbody tr');
  await page
    .locator('.tree li[role="treeitem"]', { hasText: 'topics:history OR pageCount > 500' })
    .last()
    .locator('> .node-row')
    .click();
  await page.locator('#results tbody tr').first().locator('button').click();
  await page.screenshot({ path: output, fullPage: true });
  console.log(`wrote ${output} (${statSync(output).size} bytes)`);
} finally {
  await browser.close();
  server.close();
}

// Prints the size of the built playground's JavaScript (raw and gzipped) and fails the build when
// the JavaScript exceeds the budget: the page must stay quick to load on a slow connection.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_BYTES = 300 * 1000; // 300 KB gzipped
const dist = fileURLToPath(new URL('../dist', import.meta.url));

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(path);
  }
};
walk(dist);

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
let jsRaw = 0;
let jsGzip = 0;
for (const path of files.sort()) {
  if (!/\.(js|css|html)$/.test(path)) continue;
  const content = readFileSync(path);
  const gzip = gzipSync(content, { level: 9 }).length;
  if (path.endsWith('.js')) {
    jsRaw += content.length;
    jsGzip += gzip;
  }
  console.log(
    `  ${relative(dist, path).padEnd(40)} ${kb(content.length).padStart(10)} raw ${kb(gzip).padStart(10)} gzipped`,
  );
}
// What index.html loads at once, and what loads only on demand (protobufjs, when a .proto is
// pasted). The budget holds for all of it together, so on-demand code is never a way around it.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
let entryGzip = 0;
for (const path of files) {
  if (path.endsWith('.js') && html.includes(relative(dist, path)))
    entryGzip += gzipSync(readFileSync(path), { level: 9 }).length;
}
console.log(
  `playground JavaScript: ${kb(jsRaw)} raw, ${kb(jsGzip)} gzipped (budget ${kb(BUDGET_GZIP_BYTES)} gzipped); loaded at start ${kb(entryGzip)}, on demand ${kb(jsGzip - entryGzip)}`,
);
if (jsRaw === 0) {
  console.error('no JavaScript found in playground/dist: did the build run?');
  process.exit(1);
}
if (jsGzip > BUDGET_GZIP_BYTES) {
  console.error(`the playground's JavaScript is over budget by ${kb(jsGzip - BUDGET_GZIP_BYTES)}`);
  process.exit(1);
}

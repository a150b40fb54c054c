// Prints the size of the built playground's JavaScript (raw and gzipped) and fails the build when
// it exceeds its budget: the page must stay quick to load on a slow connection. The budget holds
// for what index.html loads at once (issue 36: 300 KB gzipped, "loaded on demand beyond it"); a
// ceiling on all of it together keeps on-demand code from growing without anyone noticing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_BYTES = 300 * 1000; // loaded at start, gzipped
const CEILING_GZIP_BYTES = 360 * 1000; // everything, on demand included, gzipped
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
// What index.html loads at once, and what loads only on demand (protobufjs when a .proto is
// pasted, the SQL planner when the SQL panel opens).
const html = readFileSync(join(dist, 'index.html'), 'utf8');
let entryGzip = 0;
for (const path of files) {
  if (path.endsWith('.js') && html.includes(relative(dist, path)))
    entryGzip += gzipSync(readFileSync(path), { level: 9 }).length;
}
console.log(
  `playground JavaScript: ${kb(jsRaw)} raw, ${kb(jsGzip)} gzipped (ceiling ${kb(CEILING_GZIP_BYTES)}); loaded at start ${kb(entryGzip)} (budget ${kb(BUDGET_GZIP_BYTES)}), on demand ${kb(jsGzip - entryGzip)}`,
);
if (jsRaw === 0) {
  console.error('no JavaScript found in playground/dist: did the build run?');
  process.exit(1);
}
if (entryGzip > BUDGET_GZIP_BYTES) {
  console.error(
    `the JavaScript the playground loads at start is over budget by ${kb(entryGzip - BUDGET_GZIP_BYTES)}`,
  );
  process.exit(1);
}
if (jsGzip > CEILING_GZIP_BYTES) {
  console.error(
    `the playground's JavaScript, on demand included, is over its ceiling by ${kb(jsGzip - CEILING_GZIP_BYTES)}`,
  );
  process.exit(1);
}

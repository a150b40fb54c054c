// The records of the listkit filter benchmarks: forwarding-rule-like objects, as NDJSON or as one
// JSON array on one line (the shape of most API responses piped into listkit filter).
import { createWriteStream } from 'node:fs';

/** Forwarding-rule-like records: names, enums, labels, timestamps, nested and repeated fields. */
export async function generate(path, lines) {
  const out = createWriteStream(path);
  let text = '';
  for (let i = 0; i < lines; i++) {
    text += `${JSON.stringify(rule(i))}\n`;
    if (text.length > 1 << 20) {
      if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
      text = '';
    }
  }
  out.end(text);
  await new Promise((resolve) => out.on('finish', resolve));
}

/** Forwarding-rule-like records as one JSON array on one line, of at least `bytes` bytes. */
export async function generateArray(path, bytes) {
  const out = createWriteStream(path);
  let text = '[';
  let written = 0;
  for (let i = 0; written + text.length < bytes; i++) {
    text += `${i > 0 ? ',' : ''}${JSON.stringify(rule(i))}`;
    if (text.length > 1 << 20) {
      written += text.length;
      if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
      text = '';
    }
  }
  out.end(`${text}]`);
  await new Promise((resolve) => out.on('finish', resolve));
}

const schemes = ['EXTERNAL', 'INTERNAL', 'EXTERNAL_MANAGED', 'INTERNAL_MANAGED'];
const protocols = ['TCP', 'UDP', 'ESP', 'TCP'];

/** The i-th record. */
export function rule(i) {
  return {
    name: `${i % 3 ? 'api' : 'web'}-${i}`,
    id: String(1_000_000_000 + i),
    IPProtocol: protocols[i % 4],
    loadBalancingScheme: schemes[(i >> 2) % 4],
    labels: { env: ['prod', 'dev', 'staging'][i % 3], team: `t${i % 17}` },
    // Whole seconds, one format: jq compares the text, which then orders as the instants do.
    creationTimestamp: new Date(Date.UTC(2025, 0, 1) + (i % 365) * 86_400_000 + (i % 86_400) * 1000)
      .toISOString()
      .replace('.000Z', 'Z'),
    ports: [String(80 + (i % 5)), '443'],
    backendService: { region: `us-central${i % 3}`, weight: i % 100 },
    description: `rule number ${i}`,
  };
}

// A list server that attacks its client, for `listkit conform`'s bounds: each mode answers every
// request with one hostile response (node:http on loopback). Bodies are written with
// backpressure, so the server itself stays small while the client is the one under test.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export type Hostility =
  /** A 200 declaring (and sending, as long as read) a 1 GiB body. */
  | 'huge-body'
  /** `Content-Encoding: gzip`: 4 MiB that inflate to 4 GiB of spaces. */
  | 'gzip-bomb'
  /** A chunked body that never ends. */
  | 'endless-chunked'
  /** A page whose one item holds arrays nested 100,000 deep. */
  | 'deep-item'
  /** Pages of 1 MiB, each one item holding 350,000 empty objects, with a new token, for ever. */
  | 'tiny-objects'
  /** Each page after `delayMs`, one new item and a new token, for ever. */
  | 'slow-endless-pages'
  /** The connection reset as soon as the request arrives. */
  | 'reset'
  /** A response header of 100 KiB. */
  | 'header-overflow';

export interface HostileServer {
  url: string;
  /** Requests received. */
  requests(): number;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;
let bomb: Buffer | undefined;

/** 64 gzip members of 64 MiB of spaces each (gzip allows members one after another). */
function gzipBomb(): Buffer {
  bomb ??= Buffer.concat(Array(64).fill(gzipSync(Buffer.alloc(64 * MiB, 0x20), { level: 9 })));
  return bomb;
}

/** Writes `chunk` `times` times (for ever when undefined), waiting whenever the socket is full. */
function pump(res: ServerResponse, chunk: Buffer, times?: number): void {
  let sent = 0;
  const more = () => {
    while (times === undefined || sent < times) {
      sent++;
      if (!res.write(chunk)) {
        res.once('drain', more);
        return;
      }
    }
    res.end();
  };
  res.on('close', () => res.removeAllListeners('drain'));
  more();
}

/** Starts a server answering every request the `mode` way. */
export async function startHostileServer(
  mode: Hostility,
  options: { delayMs?: number } = {},
): Promise<HostileServer> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const json = { 'content-type': 'application/json' };
    switch (mode) {
      case 'huge-body': {
        const spaces = Buffer.alloc(MiB, 0x20);
        res.writeHead(200, { ...json, 'content-length': String(1024 * MiB) });
        return pump(res, spaces, 1024);
      }
      case 'gzip-bomb': {
        const body = gzipBomb();
        res.writeHead(200, {
          ...json,
          'content-encoding': 'gzip',
          'content-length': String(body.length),
        });
        return pump(res, body, 1);
      }
      case 'endless-chunked':
        res.writeHead(200, json);
        return pump(res, Buffer.alloc(64 * 1024, 0x20));
      case 'deep-item': {
        const depth = 100_000;
        const item = `{"name":"deep","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        res.writeHead(200, json);
        res.end(`{"items":[${item}]}`);
        return;
      }
      case 'tiny-objects': {
        const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pageToken') ?? 0);
        const empties = Array(350_000).fill('{}').join(',');
        res.writeHead(200, json);
        res.end(`{"items":[{"name":"r${page}","x":[${empties}]}],"nextPageToken":"${page + 1}"}`);
        return;
      }
      case 'slow-endless-pages': {
        const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pageToken') ?? 0);
        const timer = setTimeout(() => {
          res.writeHead(200, json);
          res.end(
            JSON.stringify({ items: [{ name: `r${page}` }], nextPageToken: String(page + 1) }),
          );
        }, options.delayMs ?? 1000);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'header-overflow':
        res.writeHead(200, { ...json, 'x-padding': 'a'.repeat(100 * 1024) });
        res.end('{"items":[]}');
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/compute/v1/projects/p/regions/r/forwardingRules`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

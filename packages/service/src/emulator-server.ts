import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { EmulatorEnv } from './emulator-state.js';
import { answerClientError, MAX_HEADER_BYTES } from './http/request-size.js';

/**
 * The emulator's HTTP server on a port: at most one at a time.
 *
 * @example
 * ```ts
 * const server = new EmulatorServer(app);
 * const url = await server.listen(0, '127.0.0.1'); // http://127.0.0.1:PORT
 * await server.close();
 * ```
 */
export class EmulatorServer {
  private server: ServerType | undefined;
  /** The port being served, once listening; undefined before and after. */
  port: number | undefined;
  /** The URL being served, once listening. */
  url: string | undefined;

  constructor(private readonly app: Hono<EmulatorEnv>) {}

  listen(port: number, host: string): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.server) {
        reject(new Error('the emulator is already listening'));
        return;
      }
      this.server = serve(
        {
          fetch: this.app.fetch,
          port,
          hostname: host,
          serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
        },
        (info: AddressInfo) => {
          this.port = info.port;
          const shownHost = host.includes(':') ? `[${host}]` : host;
          this.url = `http://${shownHost}:${info.port}`;
          resolve(this.url);
        },
      );
      this.server.on('clientError', answerClientError);
      this.server.once('error', reject);
    });
  }

  async close(): Promise<void> {
    const running = this.server;
    this.server = undefined;
    this.url = undefined;
    this.port = undefined;
    if (running) {
      await new Promise<void>((resolve, reject) =>
        running.close((error) => (error ? reject(error) : resolve())),
      );
    }
  }
}

// The provider-state endpoint Pact's verifier calls before each interaction (POST
// {state, params, action}): it runs the API's state handler, which writes the database
// directly, and answers the values the handler returns (for fromProviderState). Pact-js's own
// proxy does this too, but it parses every body it relays with a 100 KB limit, and the
// benchmark's tables are 150 KB: the verifier talks to the implementation directly instead.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StateContext, StateHandler } from './module.ts';

export interface StateServer {
  readonly url: string;
  close(): Promise<void>;
}

interface StateChange {
  readonly state?: string;
  readonly params?: Record<string, unknown>;
  readonly action?: 'setup' | 'teardown';
}

export async function startStateServer(handlers: Readonly<Record<string, StateHandler>>, ctx: StateContext): Promise<StateServer> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const change = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as StateChange;
          let values: Record<string, unknown> = {};
          if (change.action !== 'teardown' && change.state) {
            const handler = handlers[change.state];
            if (handler === undefined)
              throw new Error(`no provider state '${change.state}' in the API's pact module (known: ${Object.keys(handlers).join(', ')})`);
            values = (await handler(ctx, change.params ?? {})) ?? {};
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(values));
        } catch (error) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(error instanceof Error ? error.message : String(error));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

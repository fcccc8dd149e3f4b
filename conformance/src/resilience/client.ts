// One request on its own connection (no keep-alive), timed, never throwing: the resilience
// scenarios need to tell a refused connection from a reset one and an answer from a hang,
// which a pooled client blurs (it retries, or races an idle socket against the server's close).
import http from 'node:http';

export interface Attempt {
  /** ms since the scenario's clock started. */
  readonly start: number;
  readonly end: number;
  /** HTTP status, or 0 when no answer came. */
  readonly status: number;
  readonly mediaType: string;
  readonly body: string;
  /** When no answer came: ECONNREFUSED, ECONNRESET, timeout, … */
  readonly error?: string;
}

export interface Call {
  readonly method: string;
  readonly path: string;
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function send(baseUrl: string, call: Call, timeoutMs: number, clock: () => number): Promise<Attempt> {
  const url = new URL(call.path, baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`resilience traffic goes to 127.0.0.1 only, not ${url.hostname}`);
  const body = call.json === undefined ? undefined : JSON.stringify(call.json);
  const start = clock();
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Omit<Attempt, 'start' | 'end'>): void => {
      if (settled) return;
      settled = true;
      resolve({ start, end: clock(), ...a });
    };
    const req = http.request(
      url,
      {
        method: call.method,
        agent: false,
        headers: {
          connection: 'close',
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...call.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            mediaType: (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (e: NodeJS.ErrnoException) => done({ status: 0, mediaType: '', body: '', error: e.code ?? e.message }));
      },
    );
    req.setTimeout(timeoutMs, () => {
      done({ status: 0, mediaType: '', body: '', error: 'timeout' });
      req.destroy();
    });
    req.on('error', (e: NodeJS.ErrnoException) => done({ status: 0, mediaType: '', body: '', error: e.code ?? e.message }));
    req.end(body);
  });
}

/** A 503/504 application/problem+json whose body's status matches: what a refused request during a stall must be. */
export function isUnavailableProblem(a: Attempt): boolean {
  if ((a.status !== 503 && a.status !== 504) || a.mediaType !== 'application/problem+json') return false;
  try {
    return (JSON.parse(a.body) as { status?: unknown }).status === a.status;
  } catch {
    return false;
  }
}

// A small HTTP client for the suite: it records status, headers and the raw
// text, and never throws on a 4xx/5xx (those are what the suite checks).
import { connect, type Socket } from 'node:net';

export interface HttpRequest {
  readonly method: string;
  /** Path and query, already encoded. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Text (sent as UTF-8) or bytes as they are (a body that is not UTF-8). */
  readonly body?: string | Uint8Array;
  /**
   * Send the body with Transfer-Encoding: chunked (no Content-Length), all of it before reading
   * the answer, as a client that writes first and reads afterwards does.
   */
  readonly chunked?: boolean;
}

export interface HttpResponse {
  readonly status: number;
  /** Media type without parameters, lower-cased ('' when absent). */
  readonly mediaType: string;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body when it is JSON, else undefined. */
  readonly json: unknown;
  readonly ms: number;
}

const TIMEOUT_MS = 10_000;

export async function send(baseUrl: string, req: HttpRequest): Promise<HttpResponse> {
  if (req.chunked === true) return sendChunkedBodyFirst(baseUrl, req);
  const started = performance.now();
  const init: RequestInit = { method: req.method, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' };
  if (req.headers !== undefined) init.headers = req.headers;
  if (req.body !== undefined) init.body = typeof req.body === 'string' ? req.body : Buffer.from(req.body);
  const res = await fetch(baseUrl + req.path, init);
  return response(res.status, res.headers, await res.text(), started);
}

function response(status: number, headers: Headers, text: string, started: number): HttpResponse {
  const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let json: unknown;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status, mediaType, headers, text, json, ms: performance.now() - started };
}

const CHUNK_BYTES = 16 * 1024;

/**
 * HTTP/1.1 over a plain socket: the head, the body in 16 KiB chunks, the last chunk, and only
 * then the answer is read (the socket is paused meanwhile, so what the server sent early stays
 * in the kernel). A server that answers early and closes with part of the body unread makes
 * the kernel send a reset, which discards that answer: the client sees none, and neither does
 * this function (it throws).
 */
async function sendChunkedBodyFirst(baseUrl: string, req: HttpRequest): Promise<HttpResponse> {
  const started = performance.now();
  const url = new URL(req.path, baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  socket.pause();
  let failure: Error | undefined;
  socket.on('error', (error) => (failure ??= error));
  const deadline = setTimeout(() => socket.destroy(new Error(`no complete answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const write = (data: string | Buffer) => new Promise<void>((resolve) => socket.write(data, (error) => ((failure ??= error ?? undefined), resolve())));
    const headers = Object.entries(req.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    await write(`${req.method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${headers}Transfer-Encoding: chunked\r\n\r\n`);
    const body = Buffer.from(req.body ?? '');
    for (let at = 0; at < body.length && failure === undefined; at += CHUNK_BYTES) {
      const chunk = body.subarray(at, at + CHUNK_BYTES);
      await write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    }
    if (failure === undefined) await write('0\r\n\r\n');
    const raw = await readAnswer(socket);
    if (raw === undefined) throw new Error(`no answer after the chunked body was sent: ${failure?.message ?? 'the connection was closed'}`);
    return response(raw.status, raw.headers, raw.text, started);
  } finally {
    clearTimeout(deadline);
    socket.destroy();
  }
}

/** One HTTP/1.1 answer read from a paused socket (Content-Length, chunked, or until the end), or undefined when the connection ends or fails first. */
function readAnswer(socket: Socket): Promise<{ status: number; headers: Headers; text: string } | undefined> {
  return new Promise((resolve) => {
    let data = Buffer.alloc(0);
    const finish = (answer: { status: number; headers: Headers; text: string } | undefined) => {
      socket.removeAllListeners('data');
      resolve(answer);
    };
    const parse = (ended: boolean) => {
      const headEnd = data.indexOf('\r\n\r\n');
      if (headEnd < 0) return ended ? finish(undefined) : undefined;
      const [statusLine, ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
      if (!Number.isInteger(status)) return finish(undefined);
      const headers = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      let rest = data.subarray(headEnd + 4);
      const length = headers.get('content-length');
      if (length !== null)
        return rest.length >= Number(length)
          ? finish({ status, headers, text: rest.subarray(0, Number(length)).toString('utf8') })
          : ended
            ? finish(undefined)
            : undefined;
      if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
        const parts: Buffer[] = [];
        for (;;) {
          const lineEnd = rest.indexOf('\r\n');
          if (lineEnd < 0) return ended ? finish(undefined) : undefined;
          const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
          if (size === 0) return finish({ status, headers, text: Buffer.concat(parts).toString('utf8') });
          if (rest.length < lineEnd + 2 + size + 2) return ended ? finish(undefined) : undefined;
          parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          rest = rest.subarray(lineEnd + 2 + size + 2);
        }
      }
      return ended ? finish({ status, headers, text: rest.toString('utf8') }) : undefined;
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      parse(false);
    });
    socket.once('end', () => parse(true));
    socket.once('close', () => parse(true));
    socket.resume();
  });
}

/**
 * A case file's body in latin1: each character the one byte of its code point, so that "\xff" in
 * a YAML string is the byte 0xFF (bytes that are not UTF-8). A character above U+00FF has no
 * such byte: a case-file error, thrown rather than sent as something else.
 */
export function latin1Bytes(text: string): Uint8Array {
  const wide = [...text].find((ch) => ch.codePointAt(0)! > 0xff);
  if (wide !== undefined) throw new Error(`a latin1 body holds ${JSON.stringify(wide)}, which is not one byte`);
  return Buffer.from(text, 'latin1');
}

export function postGraphql(baseUrl: string, body: unknown): Promise<HttpResponse> {
  return send(baseUrl, {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

export function describe(res: HttpResponse): string {
  const body = res.text.length > 600 ? `${res.text.slice(0, 600)}…` : res.text;
  return `HTTP ${res.status} ${res.mediaType || '(no content-type)'} ${body}`;
}

// A small HTTP client for the suite: it records status, headers and the raw
// text, and never throws on a 4xx/5xx (those are what the suite checks).

export interface HttpRequest {
  readonly method: string;
  /** Path and query, already encoded. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
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
  const started = performance.now();
  const init: RequestInit = { method: req.method, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' };
  if (req.headers !== undefined) init.headers = req.headers;
  if (req.body !== undefined) init.body = req.body;
  const res = await fetch(baseUrl + req.path, init);
  const text = await res.text();
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let json: unknown;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, mediaType, headers: res.headers, text, json, ms: performance.now() - started };
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

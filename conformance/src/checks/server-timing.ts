// Every implementation times every response it makes (Server-Timing: app;dur=<ms>, from the
// request's arrival to the response's headers), so that the benchmark can split server time
// from network time on every API alike. The suites check it on every response from the app.
import type { HttpResponse } from '../http.ts';

const APP_TIMING = /(?:^|,)\s*app;dur=\d+(?:\.\d+)?\s*(?:,|$)/;

export function serverTimingProblems(res: HttpResponse): string[] {
  const value = res.headers.get('server-timing');
  return value !== null && APP_TIMING.test(value) ? [] : [`no Server-Timing app;dur=<ms> on the ${res.status} response (got ${JSON.stringify(value)})`];
}

/** Whether a response came from the implementation (not from the HTTP parser under it, which rejects a broken request line before any framework code runs). */
export function fromTheApp(res: HttpResponse): boolean {
  return res.mediaType === 'application/json' || res.mediaType === 'application/problem+json';
}

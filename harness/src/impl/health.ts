// The contract's readiness signal: GET /health answers 200 once the implementation can serve.

/** Resolves on a 200 from GET /health, else throws saying what came back. */
export async function healthAnswers(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
}

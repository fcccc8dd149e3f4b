// Tokens the suite forges to attack an implementation's authentication: signed
// with the implementation's own secret (valid, expired, another user's), with a
// wrong secret, or unsigned (alg none). jose does the signing.
import { SignJWT, UnsecuredJWT } from 'jose';
import type { JwtSpec } from '../case-files.ts';

export async function forgeToken(spec: JwtSpec, secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    ...(spec.sub !== undefined ? { sub: String(spec.sub) } : {}),
    ...(spec.role !== undefined ? { role: spec.role } : {}),
    iat: now - 120,
    exp: now + (spec.expiresInSeconds ?? 600),
    ...spec.claims,
  };
  if (spec.alg === 'none') return new UnsecuredJWT(claims).encode();
  const key = new TextEncoder().encode(spec.secret === 'wrong' ? `${secret}-but-not-quite` : secret);
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

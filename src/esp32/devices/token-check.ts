// The one place device tokens are compared. Both sides are hashed first so the comparison runs on
// equal-length digests (timingSafeEqual needs equal lengths, and comparing raw lengths would leak
// them), and every configured token is compared so the time does not say which one matched.
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string | Buffer): Buffer {
  return createHash('sha256').update(value).digest();
}

/** True when `given` (a bearer token or an MQTT password) equals one of `accepted`. */
export function tokenAccepted(given: string | Buffer | undefined, accepted: readonly string[]): boolean {
  if (given === undefined || given.length === 0) return false;
  const g = digest(given);
  let match = false;
  for (const token of accepted) {
    if (token && timingSafeEqual(g, digest(token))) match = true;
  }
  return match;
}

/** The token of an `Authorization: Bearer <token>` header (the scheme is optional, as firmware sends it). */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const token = authorization.replace(/^Bearer\s+/i, '').trim();
  return token || undefined;
}

// Who a caller is, without keeping its token: the SHA-256 of the bearer token. Sessions (2025) and
// tasks (both revisions) belong to the digest of the token that made them, and the task budget
// counts per digest; the token itself is never held in memory by them.
import { createHash } from 'node:crypto';

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

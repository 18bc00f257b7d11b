// An authorization server's signing key (RSA 2048, RS256: what OpenID clients expect by default), made once per endpoint with node:crypto and
// kept with its sealed state: OpenID clients get ID tokens signed with it. Access tokens are opaque
// and never signed.
import { generateKeyPairSync, randomUUID } from 'node:crypto';

export function newSigningKeys(): { keys: JsonWebKey[] } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' } as JsonWebKey] };
}

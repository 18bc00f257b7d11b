// Home Assistant's authorization server metadata with relative endpoint paths is completed against
// its own origin (src/mcp/oauth/lenient-metadata.ts), but a scheme-relative value names another
// host and must never be completed into an absolute URL there: the document is served over a real
// socket and read through the same fetch wrapper the sign-in uses.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completeMetadata, metadataCompletingFetch } from '../../src/mcp/oauth/lenient-metadata';

describe('OAuth: lenient authorization server metadata', () => {
  it('completes "/auth/token" against the issuer, and leaves //host, \\\\host and /\\host alone for the SDK to refuse', () => {
    const done = completeMetadata(
      {
        authorization_endpoint: '/auth/authorize',
        token_endpoint: '//evil.example/token',
        revocation_endpoint: '\\\\evil.example\\revoke',
        registration_endpoint: '/\\evil.example/register',
      },
      'http://ha.local:8123',
    );
    assert.equal(done.issuer, 'http://ha.local:8123');
    assert.equal(done.authorization_endpoint, 'http://ha.local:8123/auth/authorize');
    assert.equal(done.token_endpoint, '//evil.example/token');
    assert.equal(done.revocation_endpoint, '\\\\evil.example\\revoke');
    assert.equal(done.registration_endpoint, '/\\evil.example/register');
  });

  it('reads the document through a real socket, and a document past 1 MB is refused with the reply-too-large error', async () => {
    let big = false;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big ? JSON.stringify({ token_endpoint: '/t', pad: 'x'.repeat(2 * 1024 * 1024) }) : JSON.stringify({ token_endpoint: '/auth/token' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/oauth-authorization-server`;
    try {
      const fetchIt = metadataCompletingFetch();
      const doc = (await (await fetchIt(url)).json()) as Record<string, string>;
      assert.equal(doc.token_endpoint, `${new URL(url).origin}/auth/token`);
      big = true;
      await assert.rejects(fetchIt(url), /larger than 1 MB/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

// A standard OAuth 2.1 authorization server with a protected MCP server on one origin, for the
// sign-in tests: oidc-provider (panva, a certified OpenID provider) with dynamic client registration
// (RFC 7591), PKCE required, resource indicators (RFC 8707) bound to the MCP URL, opaque access
// tokens that live `accessTokenTtl` seconds, refresh tokens rotated on every use (a reused one
// revokes the grant), and its development login and consent pages (any user name and password).
// The MCP URL publishes RFC 9728 metadata naming this issuer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { freePort } from '../free-port';
import { protectedMcp, type ProtectedMcp } from './protected-mcp';
import { sendWebResponse, toWebRequest } from '../../../src/server/http/web-bridge';

export interface StandardOAuthServer {
  issuer: string;
  /** http://127.0.0.1:PORT/mcp */
  mcpUrl: string;
  mcp: ProtectedMcp;
  /** grant_type of every successful token request, in order. */
  grants: string[];
  /** Every access and refresh token it issued (a test proves none leaks). */
  issuedTokens: string[];
  registrations: number;
  close(): Promise<void>;
}

export async function startStandardOAuthServer(o: { accessTokenTtl?: number } = {}): Promise<StandardOAuthServer> {
  const { default: Provider, errors } = await import('oidc-provider');
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const mcpUrl = `${issuer}/mcp`;
  const prmPath = '/.well-known/oauth-protected-resource/mcp';
  const ttl = o.accessTokenTtl ?? 3600;
  const provider = new Provider(issuer, {
    clients: [],
    cookies: { keys: ['oauth-test-cookie-key'] },
    scopes: ['openid', 'offline_access', 'mcp'],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== mcpUrl) throw new errors.InvalidTarget();
          return { scope: 'mcp', accessTokenTTL: ttl, accessTokenFormat: 'opaque' };
        },
      },
    },
    pkce: { required: () => true },
    // Refresh tokens for any client registered with the refresh_token grant (not only offline_access).
    issueRefreshToken: async (_ctx: unknown, client: any) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: ttl },
  } as any);
  const grants: string[] = [];
  let registrations = 0;
  const issuedTokens: string[] = [];
  provider.on('grant.success', (ctx: any) => {
    grants.push(String(ctx.oidc?.params?.grant_type));
    for (const k of ['access_token', 'refresh_token']) if (typeof ctx.body?.[k] === 'string') issuedTokens.push(ctx.body[k]);
  });
  provider.on('registration_create.success', () => registrations++);
  provider.on('server_error', (_ctx: unknown, err: Error) => process.stderr.write(`oidc-provider: ${err.stack}\n`));

  const mcp = protectedMcp({
    resourceMetadataUrl: issuer + prmPath,
    accepts: async (token) => {
      const at = await provider.AccessToken.find(token);
      return !!at && !at.isExpired && at.aud === mcpUrl;
    },
  });
  const oidc = provider.callback();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === prmPath) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: ['mcp'], bearer_methods_supported: ['header'] }));
      return;
    }
    if (path === '/mcp') {
      void (async () => sendWebResponse(await mcp.fetch(await toWebRequest(req, { origin: issuer })), res))().catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(err.message));
      });
      return;
    }
    oidc(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const state: StandardOAuthServer = {
    issuer,
    mcpUrl,
    mcp,
    grants,
    issuedTokens,
    get registrations() {
      return registrations;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await mcp.close();
    },
  };
  return state;
}

// The part of oidc-provider (panva; a certified OpenID provider, ESM only, untyped) this folder
// uses, typed once here, so the rest reads typed calls. Its documentation:
// https://github.com/panva/node-oidc-provider/tree/main/docs
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface InteractionDetails {
  uid: string;
  prompt: { name: string; details?: Record<string, unknown> };
  params: Record<string, unknown>;
}

export interface FoundClient {
  clientId: string;
  clientName?: string;
  redirectUris?: string[];
}

export interface FoundAccessToken {
  clientId: string;
  aud?: string | string[];
  scope?: string;
  exp?: number;
  isExpired: boolean;
}

export interface GrantRecord {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

export interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Client: { find(id: string): Promise<FoundClient | undefined> };
  AccessToken: { find(token: string): Promise<FoundAccessToken | undefined> };
  Grant: new (init: { accountId: string; clientId: string }) => GrantRecord;
  on(event: string, listener: (...args: unknown[]) => void): void;
  proxy: boolean;
}

export interface OidcProviderModule {
  Provider: new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
  errors: { InvalidTarget: new (message?: string) => Error };
}

/** Loaded on first use: an endpoint without sign-in never pays for it. */
export async function loadOidcProvider(): Promise<OidcProviderModule> {
  const mod = (await import('oidc-provider')) as unknown as OidcProviderModule;
  return mod;
}

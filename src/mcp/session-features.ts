// Prompts and resources over an McpSession's live connection: the requests, and resource
// subscriptions that survive a reconnect. Subscriptions are per session and shared: two nodes
// watching one URI send one resources/subscribe, and the last one leaving sends the unsubscribe.
// A 2025-era connection uses resources/subscribe; a 2026-07-28 one opens a subscriptions/listen
// stream per URI (the revision replaced resources/subscribe with it). Both deliver
// notifications/resources/updated to the client's handler, which calls `dispatch`.
import { McpNodeError, errorMessage } from '../errors';
import { anyObjectResult, listAllLeniently, type LenientKind } from './lenient/prompt-resource-list';
import {
  promptArguments,
  type GetPromptResult,
  type ListOptions,
  type Prompt,
  type PromptsAndResources,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ResourceUpdate,
} from './prompts-resources';
import type { Client } from './protocol/sdk';
import { takeWireFindings } from './lenient/lenient-wire';
import type { ListWarning } from './lenient/lenient-list';

/** Runs one request on the live session with its reconnect and error rules; `what` names it in errors. */
export type SessionRunner = <T>(what: string, op: (client: Client) => Promise<T>, timeoutMs: number) => Promise<T>;

interface Subscription {
  listeners: Set<(u: ResourceUpdate) => void>;
  /** The client this URI is subscribed on, and how to undo it there. */
  on?: Client;
  undo?: () => Promise<unknown>;
}

export class SessionFeatures implements PromptsAndResources {
  private readonly subscriptions = new Map<string, Subscription>();

  constructor(
    private readonly where: string,
    private readonly run: SessionRunner,
    private readonly defaultTimeoutMs: number,
    private readonly log: {
      debug(m: string): void;
      /** What the lenient readers repaired in a list (the session logs each once). */ warnings(w: ListWarning[]): void;
    },
  ) {}

  async listPrompts(options: ListOptions = {}): Promise<{ prompts: Prompt[]; pages: number }> {
    const { items, pages } = await this.list<Prompt>('prompts/list', 'prompts', options);
    return { prompts: items, pages };
  }

  getPrompt(name: string, args?: Record<string, unknown>, options: ListOptions = {}): Promise<GetPromptResult> {
    const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
    const params = { name, arguments: promptArguments(args) };
    return this.run(`prompts/get "${name}"`, (c) => c.getPrompt(params, { timeout }), timeout);
  }

  async listResources(options: ListOptions = {}): Promise<{ resources: Resource[]; pages: number }> {
    const { items, pages } = await this.list<Resource>('resources/list', 'resources', options);
    return { resources: items, pages };
  }

  async listResourceTemplates(options: ListOptions = {}): Promise<{ resourceTemplates: ResourceTemplate[]; pages: number }> {
    const { items, pages } = await this.list<ResourceTemplate>('resources/templates/list', 'resourceTemplates', options);
    return { resourceTemplates: items, pages };
  }

  readResource(uri: string, options: ListOptions = {}): Promise<ReadResourceResult> {
    const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
    // A read must show the resource as it is now, not a copy the SDK's response cache kept.
    return this.run(`resources/read "${uri}"`, (c) => c.readResource({ uri }, { timeout, cacheMode: 'bypass' }), timeout);
  }

  async subscribeResource(uri: string, onUpdate: (u: ResourceUpdate) => void, options: ListOptions = {}): Promise<() => Promise<void>> {
    let sub = this.subscriptions.get(uri);
    if (!sub) {
      sub = { listeners: new Set() };
      this.subscriptions.set(uri, sub);
    }
    sub.listeners.add(onUpdate);
    try {
      const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
      await this.run(`resources/subscribe "${uri}"`, (c) => this.ensureSubscribed(c, uri, timeout), timeout);
    } catch (err) {
      this.removeListener(uri, onUpdate);
      throw err;
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      const emptied = this.removeListener(uri, onUpdate);
      if (emptied?.undo) await emptied.undo().catch((e: unknown) => this.log.debug(`${this.where}: unsubscribe ${uri}: ${errorMessage(e)}`));
    };
  }

  /** A notifications/resources/updated from the server, to every listener of its URI. */
  dispatch(params: unknown): void {
    const update = (params ?? {}) as ResourceUpdate;
    const sub = typeof update.uri === 'string' ? this.subscriptions.get(update.uri) : undefined;
    for (const l of sub?.listeners ?? []) l({ ...update });
  }

  /**
   * After a reconnect the server has forgotten our subscriptions: make them again before the new
   * connection is used, so an update the next request causes is not missed. Never rejects.
   */
  async resubscribe(client: Client): Promise<void> {
    await Promise.all(
      [...this.subscriptions.keys()].map((uri) =>
        this.ensureSubscribed(client, uri, this.defaultTimeoutMs).catch((e: unknown) =>
          this.log.debug(`${this.where}: could not renew the subscription to ${uri}: ${errorMessage(e)}`),
        ),
      ),
    );
  }

  private async ensureSubscribed(client: Client, uri: string, timeout: number): Promise<void> {
    const sub = this.subscriptions.get(uri);
    if (!sub || sub.on === client) return;
    if (!client.getServerCapabilities()?.resources?.subscribe) {
      throw new McpNodeError(
        `${this.where} does not offer resource subscriptions (its resources capability has no "subscribe")`,
        'no subscriptions',
        'NOT_SUPPORTED',
      );
    }
    if (isModern(client)) {
      const listening = await client.listen({ resourceSubscriptions: [uri] }, { timeout });
      sub.undo = () => listening.close();
    } else {
      await client.subscribeResource({ uri }, { timeout });
      sub.undo = () => client.unsubscribeResource({ uri }, { timeout });
    }
    sub.on = client;
  }

  private removeListener(uri: string, listener: (u: ResourceUpdate) => void): Subscription | undefined {
    const sub = this.subscriptions.get(uri);
    if (!sub) return undefined;
    sub.listeners.delete(listener);
    if (sub.listeners.size > 0) return undefined;
    this.subscriptions.delete(uri);
    return sub;
  }

  private list<T>(method: string, kind: LenientKind, options: ListOptions): Promise<{ items: T[]; pages: number }> {
    const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
    return this.run(
      method,
      (c) =>
        listAllLeniently<T>(
          async (cursor) => {
            const page = await c.request({ method, params: cursor ? { cursor } : {} }, anyObjectResult, { timeout });
            this.log.warnings(takeWireFindings(page).warnings);
            return page;
          },
          kind,
          this.where,
        ),
      timeout,
    );
  }
}

function isModern(client: Client): boolean {
  const v = client.getNegotiatedProtocolVersion();
  return typeof v === 'string' && v >= '2026';
}

// What of an mcp-endpoint outlives a deploy: the engine with its tool, prompt and resource lists,
// the HTTP serving with its 2025 sessions and 2026 listeners, the route, sign-in, the xiaozhi link,
// the announcement and the server card. A "Full" deploy (the editor's default) stops and starts
// every node; an endpoint whose settings (credentials included) did not change is parked when its
// node stops and adopted by the node that starts with the same id, so connected clients keep their
// sessions and hear one list_changed per list that changed (flow-registry.ts) instead of a 404.
// Parked endpoints nobody adopted are closed when the runtime says the new flows started, and all
// of them when it says the flows stopped without a deploy (Node-RED shutting down, or flows stopped
// from the admin API): only a deploy keeps clients. KEEP_MS is the last resort. A node that is
// removed, or whose settings changed, closes its endpoint at once.
import { createHash } from 'node:crypto';
import { McpEndpoint } from '../../src/server/endpoint';
import { HttpServing } from '../../src/server/http-endpoint';
import { allowedHostnames } from '../../src/server/http/access';
import type { EndpointSettings } from '../../src/server/settings';
import { errorMessage } from '../../src/errors';
import { mountRoutes } from './http-node-routes';
import { attachSignIn, type AttachedSignIn } from './sign-in';
import { announceEndpoint } from './announce';
import { publishServerCard } from './server-card';
import { startXiaozhiLink } from './xiaozhi-link';
import { nodeRedView } from './node-red-view';
import { nodeRedRuntime } from './node-red-runtime';
import { assistantChanges } from './assistant-changes';
import { NodeRedTools } from '../../src/server/node-red/node-red-tools';
import { secrets } from '../../src/secrets';
import type { McpEndpointConfigNode } from './endpoint-config';
import type { RED } from '../shared/red-types';
import { translator } from '../shared/i18n';

const KEEP_MS = 15_000;

export interface LastingEndpoint {
  /** The settings it was opened with, as a digest: adoption needs the same. */
  key: string;
  endpoint: McpEndpoint;
  signIn?: AttachedSignIn;
  /** Mounts the route again when Node-RED's HTTP app is another one than it was opened on. */
  remount(RED: RED): void;
  close(reason: string): Promise<void>;
}

const parked = new Map<string, { lasting: LastingEndpoint; timer: NodeJS.Timeout; reason: string }>();

export function settingsKey(settings: EndpointSettings, unsetTokens: string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([settings, unsetTokens]))
    .digest('base64url');
}

/** The endpoint the node with this id left at the last deploy, when it was opened with the same settings. */
export function adoptParked(id: string, key: string): LastingEndpoint | undefined {
  const held = parked.get(id);
  if (!held) return undefined;
  parked.delete(id);
  clearTimeout(held.timer);
  if (held.lasting.key === key) return held.lasting;
  void held.lasting.close(held.reason);
  return undefined;
}

function closeParked(): void {
  for (const [id, held] of parked) {
    parked.delete(id);
    clearTimeout(held.timer);
    void held.lasting.close(held.reason);
  }
}

const watchedRuntimes = new WeakSet<object>();

/** Closes what the deploy did not take over, and everything when flows stop without a deploy. */
function watchRuntime(RED: RED): void {
  const events = RED.events as { on(event: string, listener: (e: unknown) => void): void } | undefined;
  if (!events || watchedRuntimes.has(events)) return;
  watchedRuntimes.add(events);
  events.on('flows:started', closeParked);
  events.on('runtime-event', (e) => {
    const event = e as { id?: string; payload?: { state?: string; deploy?: boolean } };
    if (event?.id === 'runtime-state' && event.payload?.state === 'stop' && !event.payload.deploy) closeParked();
  });
}

/** Keeps the endpoint for the node that a deploy starts next with this id. */
export function park(RED: RED, id: string, lasting: LastingEndpoint, reason: string): void {
  watchRuntime(RED);
  const timer = setTimeout(() => {
    parked.delete(id);
    void lasting.close(reason);
  }, KEEP_MS);
  timer.unref?.();
  parked.set(id, { lasting, timer, reason });
}

export interface OpenOptions {
  settings: EndpointSettings;
  unsetTokens: string[];
  version: string;
}

/** Opens the endpoint's lasting part: the engine, sign-in, the HTTP serving and what is published. */
export function openEndpoint(RED: RED, node: McpEndpointConfigNode, { settings, unsetTokens, version }: OpenOptions): LastingEndpoint {
  const taskLimits = { total: settings.maxTasks, perClient: settings.tasksPerClient };
  const endpoint = new McpEndpoint({ name: settings.name, version, instructions: settings.instructions, taskLimits });
  const closers: Array<() => Promise<void> | void> = [];
  node.endpoint = endpoint; // the xiaozhi link and the object graph reach it through the node
  const signIn = settings.signIn ? attachSignIn(RED, node, settings) : undefined;
  if (signIn) closers.push(() => signIn.close());
  const serving = new HttpServing(endpoint, {
    tokens: settings.tokens,
    signIn: signIn?.gate,
    unsetTokenVariables: unsetTokens,
    anonymous: settings.anonymous,
    allowedHosts: allowedHostnames(),
    instance: settings.instance,
    maxSessions: settings.maxSessions,
    sessionsPerClient: settings.sessionsPerClient,
    onError: (err) => node.debug(errorMessage(err)),
  });
  const mount = (on: RED) => ({
    app: on.httpNode as unknown,
    release: mountRoutes(on, settings.path, ['post', 'get', 'delete'], serving.handle, `${node.label} (${node.id})`),
  });
  let route = mount(RED);
  closers.push(
    () => route.release(),
    () => serving.close(),
  );
  if (settings.xiaozhiEndpoint) closers.push(startXiaozhiLink(RED, node, settings.xiaozhiEndpoint));
  if (settings.announce) closers.push(announceEndpoint(RED, node, translator(RED, 'mcp-endpoint'), settings.path));
  if (settings.nodeRedTools) {
    const view = nodeRedView(RED);
    const runtime = nodeRedRuntime(RED);
    if (settings.nodeRedChanges && !runtime) node.warn("changes are not allowed: this Node-RED's runtime API is out of reach of the package");
    const writes =
      settings.nodeRedChanges && runtime
        ? assistantChanges(RED, { id: node.id, label: node.label }, runtime, view, {
            markedOnly: settings.nodeRedTabs === 'marked',
            editorOnly: settings.nodeRedApproval === 'editor',
          })
        : undefined;
    endpoint.nodeRed = new NodeRedTools(view, (value) => secrets.scrubValue(value), runtime, writes?.changes);
    closers.push(
      () => view.close(),
      () => writes?.close(),
    );
  }
  if (settings.publishCard)
    closers.push(publishServerCard(RED, node.id, { path: settings.path, title: node.label, bearer: !settings.anonymous || settings.signIn }));
  return {
    key: settingsKey(settings, unsetTokens),
    endpoint,
    signIn,
    remount(current: RED) {
      if (current.httpNode === route.app) return;
      route.release();
      route = mount(current);
    },
    async close(reason: string) {
      endpoint.close(reason);
      await Promise.allSettled(closers.map((c) => c()));
    },
  };
}

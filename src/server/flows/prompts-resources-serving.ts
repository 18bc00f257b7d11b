// The prompts and resources flows offer (mcp-prompt-in, mcp-resource-in) and the object graph's
// roots, served by one SDK Server: prompts/list and get, resources/list, templates/list and read,
// and on 2025 sessions resources/subscribe (2026-07-28 clients listen through the HTTP handler's
// subscriptions/listen instead; http-endpoint.ts publishes the same updates there).
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Server,
} from '@modelcontextprotocol/server';
import type { FlowRegistry } from './flow-registry';
import { promptArgumentProblem, type FlowPrompt } from './flow-prompts';
import { readResult, type ResourceRegistry } from './flow-resources';
import { isToolResult, type GraphTools } from '../calls/types';
import { callerOf, type Caller } from '../calls/caller';
import type { SkillRegistry } from './flow-skills';
import { readSkillFile, skillResources } from './skills-serving';

/** What of the endpoint (endpoint.ts) this serves. */
interface Offered {
  prompts: FlowRegistry<FlowPrompt>;
  resources: ResourceRegistry;
  skills: SkillRegistry;
  graph: GraphTools | undefined;
  onResourceUpdated(listener: (uri: string) => void): () => void;
}

/** The object graph's roots as resources: `graph:///home` reads what `query` shows of /home. */
const GRAPH_SCHEME = 'graph:///';

export function servePromptsAndResources(server: Server, endpoint: Offered, era: 'legacy' | 'modern'): void {
  server.setRequestHandler('prompts/list', () => ({ prompts: endpoint.prompts.all().map((p) => p.definition) }));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name } = request.params;
    const prompt = endpoint.prompts.get(name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    const args = (request.params.arguments ?? {}) as Record<string, string>;
    const problem = promptArgumentProblem(prompt.definition, args);
    if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, problem);
    return prompt.get({ ...callerOf(server, ctx), prompt: name, arguments: args, what: `the prompt ${name}` });
  });
  server.setRequestHandler('resources/list', () => ({
    resources: [...endpoint.resources.fixed(), ...graphResources(endpoint), ...skillResources(endpoint.skills)],
  }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [...endpoint.resources.templates(), ...graphTemplates(endpoint)] }));
  server.setRequestHandler('resources/read', async (request, ctx) => read(endpoint, request.params.uri, callerOf(server, ctx)));
  // A 2026-07-28 server lives for one request: it never subscribes (nor closes to unsubscribe).
  if (era === 'modern') return;
  // 2025 sessions subscribe per URI and hear notifications/resources/updated on their GET stream.
  const subscribed = new Set<string>();
  const stop = endpoint.onResourceUpdated((uri) => {
    if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => undefined);
  });
  server.onclose = chain(server.onclose, stop);
  server.setRequestHandler('resources/subscribe', (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
}

async function read(endpoint: Offered, uri: string, caller: Caller): Promise<ReadResourceResult> {
  if (endpoint.graph && uri.startsWith(GRAPH_SCHEME)) return readGraph(endpoint, uri, caller);
  const skillFile = readSkillFile(endpoint.skills, uri);
  if (skillFile) return skillFile;
  const found = endpoint.resources.match(uri);
  if (!found) throw new ResourceNotFoundError(uri);
  const body = await found.resource.read({ ...caller, uri, variables: found.variables, what: `the read of ${uri}` });
  return readResult(uri, found.resource.definition, body);
}

function graphResources(endpoint: Offered): Resource[] {
  return (endpoint.graph?.rootNames() ?? []).map((name) => ({
    uri: `${GRAPH_SCHEME}${name}`,
    name: `/${name}`,
    title: `Object graph: /${name}`,
    description: `The subjects below /${name} with their properties, as the query tool shows them.`,
    mimeType: 'application/json',
  }));
}

function graphTemplates(endpoint: Offered): ResourceTemplate[] {
  if (!endpoint.graph) return [];
  return [
    {
      uriTemplate: `${GRAPH_SCHEME}{+path}`,
      name: 'object graph path',
      description: 'Any subject of the object graph, e.g. graph:///home/bedroom: its child subjects with their properties.',
      mimeType: 'application/json',
    },
  ];
}

async function readGraph(endpoint: Offered, uri: string, caller: Caller): Promise<ReadResourceResult> {
  const path = `/${decodeURIComponent(uri.slice(GRAPH_SCHEME.length))}`;
  const result = await endpoint.graph!.call(
    'query',
    { path, includeProperties: true },
    { ...caller, tool: 'query', arguments: { path }, progress: async () => undefined },
  );
  if (!isToolResult(result)) throw new ResourceNotFoundError(uri, 'the object graph asked for input');
  const text = result.content?.[0]?.type === 'text' ? result.content[0].text : '';
  if (result.isError) throw new ResourceNotFoundError(uri, text);
  return { contents: [{ uri, mimeType: 'application/json', text }] };
}

function chain(first: (() => void) | undefined, then: () => void): () => void {
  return () => {
    first?.();
    then();
  };
}

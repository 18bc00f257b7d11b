// Resources a flow offers (`mcp-resource-in`): a fixed URI or a URI template (RFC 6570, matched by
// the SDK's UriTemplate), checked; the flow's answer (`mcp-resource-out`'s msg.payload) turned into
// resources/read contents. Throws with what to fix.
import {
  UriTemplate,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Variables,
} from '@modelcontextprotocol/server';
import { FlowRegistry } from './flow-registry';
import type { WaitingRequest } from '../calls/pending-requests';
import { textSetting } from '../../settings-values';

/** One resources/read as the flow sees it. */
export interface ResourceRequest extends WaitingRequest {
  uri: string;
  /** The template's variables filled from the URI (none for a fixed URI). */
  variables: Variables;
  requestId: string | number;
  client: { name?: string; version?: string };
}

/** What a flow answers: text or bytes, and a MIME type when it knows better than the node's setting. */
export type ResourceBody = { text: string; mimeType?: string } | { blob: string; mimeType?: string };

export interface FlowResource {
  owner: string;
  /** A fixed resource, or a template (then `template` matches URIs). */
  definition: Resource | ResourceTemplate;
  template?: UriTemplate;
  read(request: ResourceRequest): Promise<ResourceBody>;
}

export interface FlowResourceSettings {
  definition: Resource | ResourceTemplate;
  template?: UriTemplate;
  timeoutMs: number;
}

/** Text only: a number where a name or URI belongs is a mistake in the flow, not a name. */
const text = (v: unknown) => (typeof v === 'string' && textSetting(v)) || undefined;

export function flowResourceSettings(def: Record<string, unknown>, defaultTimeoutS: number): FlowResourceSettings {
  const uri = text(def.uri) ?? '';
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(uri))
    throw new Error(`resource URI "${uri}" must be a URI with a scheme, such as notes://today or file:///notes/{day}`);
  const name = text(def.name) ?? uri;
  const title = text(def.title);
  const description = text(def.description);
  const mimeType = text(def.mimeType);
  const extras = { ...(title ? { title } : {}), ...(description ? { description } : {}), ...(mimeType ? { mimeType } : {}) };
  const seconds = Number(def.timeout);
  const timeoutMs = (Number.isFinite(seconds) && seconds > 0 ? seconds : defaultTimeoutS) * 1000;
  if (!UriTemplate.isTemplate(uri)) return { definition: { uri, name, ...extras }, timeoutMs };
  let template: UriTemplate;
  try {
    template = new UriTemplate(uri);
  } catch (err) {
    throw new Error(`URI template "${uri}" does not parse: ${(err as Error).message}`, { cause: err });
  }
  return { definition: { uriTemplate: uri, name, ...extras }, template, timeoutMs };
}

/** msg.payload → contents: a Buffer as bytes (base64 on the wire), a string as text, anything else as JSON. */
export function resourceBodyFromReply(payload: unknown, mimeType?: unknown): ResourceBody {
  const type = text(mimeType);
  if (Buffer.isBuffer(payload) || payload instanceof Uint8Array) return { blob: Buffer.from(payload).toString('base64'), ...(type ? { mimeType: type } : {}) };
  if (typeof payload === 'string') return { text: payload, ...(type ? { mimeType: type } : {}) };
  if (payload === undefined) throw new Error('msg.payload is empty: send the resource as a string, a Buffer or a JSON value');
  return { text: JSON.stringify(payload), mimeType: type ?? 'application/json' };
}

export function readResult(uri: string, definition: FlowResource['definition'], body: ResourceBody): ReadResourceResult {
  const mimeType = body.mimeType ?? definition.mimeType;
  return { contents: [{ uri, ...(mimeType ? { mimeType } : {}), ...('blob' in body ? { blob: body.blob } : { text: body.text }) }] };
}

const keyOf = (r: FlowResource) => ('uri' in r.definition ? r.definition.uri : r.definition.uriTemplate);

/** Fixed resources by URI first, then the first template that matches. */
export class ResourceRegistry extends FlowRegistry<FlowResource> {
  constructor() {
    super(keyOf);
  }

  fixed(): Resource[] {
    return this.all()
      .filter((r) => !r.template)
      .map((r) => r.definition as Resource);
  }

  templates(): ResourceTemplate[] {
    return this.all()
      .filter((r) => r.template)
      .map((r) => r.definition as ResourceTemplate);
  }

  /** The resource serving `uri`, with the template's variables. */
  match(uri: string): { resource: FlowResource; variables: Variables } | undefined {
    const exact = this.get(uri);
    if (exact && !exact.template) return { resource: exact, variables: {} };
    for (const resource of this.all()) {
      const variables = resource.template?.match(uri);
      if (variables) return { resource, variables };
    }
    return undefined;
  }
}

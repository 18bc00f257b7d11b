// Seed 002's six tools over the exposed roots: browse (query), read (get_property), write
// (set_property, only inside the writable globs, only existing properties of the same type),
// capabilities (list_types) and methods (list_methods / invoke_method → mcp-tool-in flows bound to
// a subject). Limits: maxDepth for paths and query depth, maxSubjects per answer (`truncated`).
import { minimatch } from 'minimatch';
import type { GraphTools } from '../../calls/types';
import type { ToolRegistry } from '../tool-registry';
import { errorResult, isToolResult, type CallToolResult, type Tool, type ToolAnswer, type ToolCall } from '../../calls/types';
import { GRAPH_TOOLS } from './definitions';
import { GraphRefusal, childKeys, compatible, hasChildSubjects, isPlainObject, isSubject, jsonType, metaOf, pathOf, propertyOf, segmentsOf } from './model';
import type { GraphRoot } from './source';

export interface GraphLimits {
  maxDepth: number;
  maxSubjects: number;
  writable: string[];
}

type Located =
  | { kind: 'top' }
  | { kind: 'subject'; value: Record<string, unknown>; root: GraphRoot; inner: string[] }
  | { kind: 'property'; value: unknown; root: GraphRoot; inner: string[]; rootValue: unknown; holder?: Record<string, unknown> };

const ok = (data: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data });

export class ObjectGraph implements GraphTools {
  private readonly names = new Set(GRAPH_TOOLS.map((t) => t.name));

  constructor(
    private readonly roots: GraphRoot[],
    private readonly limits: GraphLimits,
    private readonly methods: ToolRegistry,
  ) {}

  definitions(): Tool[] {
    return GRAPH_TOOLS;
  }

  rootNames(): string[] {
    return this.roots.map((r) => r.name);
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  async call(name: string, args: Record<string, unknown>, call: ToolCall): Promise<ToolAnswer> {
    try {
      switch (name) {
        case 'query':
          return ok(await this.query(args));
        case 'get_property':
          return ok(await this.getProperty(args.path));
        case 'set_property':
          return ok(await this.setProperty(args.path, args.value));
        case 'list_types':
          return ok(await this.listTypes());
        case 'list_methods':
          return ok(await this.listMethods(args.path));
        default:
          return await this.invokeMethod(args, call);
      }
    } catch (err) {
      if (err instanceof GraphRefusal) return errorResult(err.message);
      throw err;
    }
  }

  private checkedSegments(path: unknown): string[] {
    const segments = segmentsOf(path);
    if (segments.length > this.limits.maxDepth) {
      throw new GraphRefusal(`Path ${pathOf(segments)} is ${segments.length} levels deep; this endpoint allows at most ${this.limits.maxDepth}.`);
    }
    if (segments.some((s) => s.startsWith('$'))) throw new GraphRefusal(`Path ${pathOf(segments)} names metadata ($-keys are not properties).`);
    return segments;
  }

  private async locate(segments: string[]): Promise<Located> {
    if (segments.length === 0) return { kind: 'top' };
    const root = this.roots.find((r) => r.name === segments[0]);
    if (!root) throw new GraphRefusal(`Nothing at ${pathOf(segments)}: the roots are ${this.roots.map((r) => `/${r.name}`).join(', ')}.`);
    const rootValue: unknown = await root.read();
    if (rootValue === undefined) throw new GraphRefusal(`Nothing at /${root.name}: the context value is not set (yet).`);
    let value: unknown = rootValue;
    let holder: Record<string, unknown> | undefined;
    for (let i = 1; i < segments.length; i++) {
      if (!isSubject(value) || !Object.prototype.hasOwnProperty.call(value, segments[i])) {
        throw new GraphRefusal(`Nothing at ${pathOf(segments.slice(0, i + 1))}; use query on ${pathOf(segments.slice(0, i))} to see what is there.`);
      }
      holder = value;
      value = value[segments[i]];
    }
    const inner = segments.slice(1);
    return isSubject(value) ? { kind: 'subject', value, root, inner } : { kind: 'property', value, root, inner, rootValue, holder };
  }

  private isWritable(path: string): boolean {
    return this.limits.writable.some((glob) => minimatch(path, glob.startsWith('/') ? glob : `/${glob}`));
  }

  private async query(args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const segments = this.checkedSegments(args.path);
    const depth = args.depth === undefined ? 1 : Number(args.depth);
    if (!Number.isInteger(depth) || depth < 1) throw new GraphRefusal('depth must be a whole number of at least 1.');
    if (depth > this.limits.maxDepth)
      throw new GraphRefusal(`depth ${depth} is over this endpoint's limit of ${this.limits.maxDepth}; query a deeper path instead.`);
    const types = isPlainObject(args.filter) && Array.isArray(args.filter.types) ? new Set(args.filter.types.map(String)) : undefined;
    const walk = { count: 0, truncated: false, includeProperties: args.includeProperties === true, types };
    const here = await this.locate(segments);
    if (here.kind === 'property') throw new GraphRefusal(`${pathOf(segments)} is a property; read it with get_property.`);
    const children: Array<[string, unknown]> =
      here.kind === 'top'
        ? await Promise.all(this.roots.map(async (r) => [r.name, await r.read()] as [string, unknown]))
        : childKeys(here.value).map((k) => [k, here.value[k]]);
    const subjects = this.viewChildren(children, segments, depth, walk);
    return { path: pathOf(segments), subjects, truncated: walk.truncated, subjectCount: walk.count };
  }

  private viewChildren(children: Array<[string, unknown]>, at: string[], remaining: number, walk: Walk): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of children) {
      if (!isSubject(value)) continue;
      if (walk.count >= this.limits.maxSubjects) {
        walk.truncated = true;
        break;
      }
      const view = this.viewSubject(value, [...at, key], remaining - 1, walk);
      if (view) out[key] = view;
    }
    return out;
  }

  /** One subject's entry; with a type filter a non-matching subject stays only as the container of matching ones. */
  private viewSubject(subject: Record<string, unknown>, at: string[], remaining: number, walk: Walk): Record<string, unknown> | undefined {
    const meta = metaOf(subject);
    const matches = !walk.types || [meta.$type, ...(meta.$interfaces ?? [])].some((t) => t !== undefined && walk.types!.has(t));
    walk.count++;
    const view: Record<string, unknown> = { ...meta };
    const methods = this.methods.methodsOf(pathOf(at)).map((m) => m.method!);
    if (methods.length) view.$methods = methods;
    view.$hasChildren = hasChildSubjects(subject);
    if (walk.includeProperties && matches) {
      for (const key of childKeys(subject)) {
        if (isSubject(subject[key])) continue;
        const { value, unit } = propertyOf(subject[key]);
        view[key] = { value, ...(unit ? { unit } : {}), isWritable: this.isWritable(pathOf([...at, key])) };
      }
    }
    const children =
      remaining > 0
        ? this.viewChildren(
            childKeys(subject).map((k) => [k, subject[k]]),
            at,
            remaining,
            walk,
          )
        : {};
    if (!matches && Object.keys(children).length === 0) {
      walk.count--;
      return undefined;
    }
    return Object.assign(view, children);
  }

  private async getProperty(path: unknown): Promise<Record<string, unknown>> {
    const segments = this.checkedSegments(path);
    const here = await this.locate(segments);
    if (here.kind !== 'property') throw new GraphRefusal(`${pathOf(segments)} is a subject, not a property; browse it with query.`);
    const { value, unit } = propertyOf(here.value);
    return { value, type: jsonType(value), isWritable: this.isWritable(pathOf(segments)), ...(unit ? { unit } : {}) };
  }

  private async setProperty(path: unknown, next: unknown): Promise<Record<string, unknown>> {
    const segments = this.checkedSegments(path);
    const shown = pathOf(segments);
    if (!this.isWritable(shown)) throw new GraphRefusal(`${shown} is not writable: it matches none of this endpoint's writable paths. Nothing was changed.`);
    const here = await this.locate(segments);
    if (here.kind !== 'property') throw new GraphRefusal(`${shown} is a subject, not a property. Nothing was changed.`);
    if (next === undefined) throw new GraphRefusal('value is required. Nothing was changed.');
    const { value: previous } = propertyOf(here.value);
    if (!compatible(previous, next)) throw new GraphRefusal(`${shown} holds a ${jsonType(previous)}; a ${jsonType(next)} was given. Nothing was changed.`);
    // Written into the very object that was read, by key, and stored back whole: whatever a key
    // holds (dots, brackets, backslashes) it is the key that was read, never a re-parsed expression.
    if (isPlainObject(here.value)) here.value.value = next;
    else if (here.holder) here.holder[here.inner[here.inner.length - 1]] = next;
    await here.root.replace(here.holder || isPlainObject(here.value) ? here.rootValue : next);
    return { success: true, previousValue: previous };
  }

  private async listTypes(): Promise<Record<string, unknown>> {
    const found = new Map<string, string | undefined>();
    const descriptions = new Map<string, string>();
    let visited = 0;
    const visit = (v: unknown, depth: number) => {
      if (!isSubject(v) || depth > this.limits.maxDepth || visited++ > this.limits.maxSubjects * 10) return;
      for (const i of metaOf(v).$interfaces ?? []) found.set(i, undefined);
      if (isPlainObject(v.$types)) for (const [k, d] of Object.entries(v.$types)) if (typeof d === 'string') descriptions.set(k, d);
      for (const k of childKeys(v)) visit(v[k], depth + 1);
    };
    for (const root of this.roots) visit(await root.read(), 1);
    const types = [...found.keys()].sort().map((name) => (descriptions.has(name) ? { name, description: descriptions.get(name) } : { name }));
    return { types };
  }

  private async subjectPath(path: unknown): Promise<string> {
    const segments = this.checkedSegments(path);
    const here = await this.locate(segments);
    if (here.kind !== 'subject') throw new GraphRefusal(`${pathOf(segments)} is not a subject; methods belong to subjects.`);
    return pathOf(segments);
  }

  private async listMethods(path: unknown): Promise<Record<string, unknown>> {
    const at = await this.subjectPath(path);
    const methods = this.methods.methodsOf(at).map((m) => {
      const schema = m.definition.inputSchema as { properties?: Record<string, { type?: unknown; description?: unknown }>; required?: string[] };
      const parameters = Object.entries(schema.properties ?? {}).map(([name, p]) => ({
        name,
        type: typeof p.type === 'string' ? p.type : 'any',
        required: (schema.required ?? []).includes(name),
        ...(typeof p.description === 'string' ? { description: p.description } : {}),
      }));
      return { name: m.method, kind: 'operation', ...(m.definition.description ? { description: m.definition.description } : {}), parameters };
    });
    return { methods };
  }

  private async invokeMethod(args: Record<string, unknown>, call: ToolCall): Promise<ToolAnswer> {
    const at = await this.subjectPath(args.path);
    const name = typeof args.method === 'string' ? args.method : '';
    const method = this.methods.method(at, name);
    if (!method) {
      const known = this.methods.methodsOf(at).map((m) => m.method);
      throw new GraphRefusal(`${at} has no method "${name}"; ${known.length ? `its methods are ${known.join(', ')}` : 'it has no methods'}.`);
    }
    const methodArgs = isPlainObject(args.arguments) ? args.arguments : {};
    const result = await method.invoke({ ...call, tool: name, arguments: methodArgs });
    // A method's flow asking the person first (2026-07-28): the client answers and retries the call.
    if (!isToolResult(result) || result.isError) return result;
    return { content: result.content, structuredContent: { success: true, ...(result.structuredContent ? { result: result.structuredContent } : {}) } };
  }
}

interface Walk {
  count: number;
  truncated: boolean;
  includeProperties: boolean;
  types: Set<string> | undefined;
}

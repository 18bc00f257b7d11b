// The Gemini function-calling loop, ours rather than the SDK's automatic function calling (which
// drops call ids). Each model turn is a step: the model's content is appended exactly as received
// (thought signatures are opaque and must come back byte for byte), every call of the step runs in
// parallel, and one role:"user" content carries one functionResponse per call, same order, same id.
import type {
  Candidate,
  Content,
  FunctionCallingConfigMode,
  GenerateContentConfig,
  GenerateContentResponse,
  GoogleGenAI,
  Part,
  ThinkingLevel,
} from '@google/genai';
import type { ThinkingLevelName } from './agent-settings';
import { MaxStepsError, toGeminiError } from './errors';
import { googleToolUse, requestTools, type GoogleTool, type GoogleToolUse } from './google-tools';
import { runCall } from './run-call';
import type { AgentResult, FunctionCallingMode, ToolCatalog, ToolExecutor, TraceCall, TraceStep, Usage } from './types';

export interface AgentRequest {
  client: GoogleGenAI;
  model: string;
  /** History (if any) followed by the new user turn. */
  contents: Content[];
  systemInstruction?: string;
  catalog: ToolCatalog;
  executor: ToolExecutor;
  /** Google's own tools, in the same requests as the catalog's functions. */
  googleTools?: readonly GoogleTool[];
  maxSteps: number;
  functionCalling: FunctionCallingMode;
  thinkingLevel?: ThinkingLevelName;
  temperature?: number;
  /** Per Gemini request. */
  timeoutMs: number;
  /** Cancels everything (node closed). */
  signal?: AbortSignal;
  stream?: boolean;
  onText?: (text: string, step: number) => void;
  /** Strings that must never appear in an error (the API key). */
  secrets: Array<string | undefined>;
  endpoint?: string;
}

interface ModelReply {
  content?: Content;
  /** What Google's tools did in this turn. */
  google?: GoogleToolUse;
  finishReason?: string;
  usage?: Usage;
  blocked?: string;
  modelVersion?: string;
}

export async function runAgent(req: AgentRequest): Promise<AgentResult> {
  const contents = [...req.contents];
  const steps: TraceStep[] = [];
  const usage: Usage = {};
  const config = requestConfig(req);
  for (let step = 1; ; step++) {
    const reply = await callModel(req, contents, config, step);
    addUsage(usage, reply.usage);
    if (reply.blocked) {
      return { text: '', contents, steps, usage, finishReason: reply.finishReason, blocked: reply.blocked, modelVersion: reply.modelVersion };
    }
    const parts = reply.content?.parts ?? [];
    const calls = parts.filter((p) => p.functionCall).map((p) => p.functionCall!);
    if (reply.content && parts.length > 0) contents.push({ ...reply.content, role: reply.content.role ?? 'model' });
    const google = reply.google ?? googleToolUse(parts);
    const withGoogle = google ? { google } : {};
    if (calls.length === 0) {
      steps.push({ calls: [], usage: reply.usage, ...withGoogle });
      return { text: textOf(parts), contents, steps, usage, finishReason: reply.finishReason, modelVersion: reply.modelVersion };
    }
    if (step >= req.maxSteps) {
      steps.push({ calls: calls.map((c) => pendingTrace(req.catalog, c.name ?? '', c.args ?? {}, c.id)), usage: reply.usage, ...withGoogle });
      throw new MaxStepsError(
        req.maxSteps,
        calls.map((c) => c.name ?? '?'),
        { steps, usage },
      );
    }
    const traced = await Promise.all(
      calls.map((c, index) => runCall(req, { id: c.id, name: c.name ?? '', args: (c.args ?? {}) as Record<string, unknown>, step, index })),
    );
    contents.push({
      role: 'user',
      parts: traced.map(({ call, outcome }) => ({
        functionResponse: { ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, response: outcome.response as Record<string, unknown> },
      })),
    });
    steps.push({ calls: traced.map((t) => t.trace), usage: reply.usage, ...withGoogle });
  }
}

function requestConfig(req: AgentRequest): GenerateContentConfig {
  const config: GenerateContentConfig = {};
  if (req.systemInstruction) config.systemInstruction = req.systemInstruction;
  if (req.thinkingLevel) config.thinkingConfig = { thinkingLevel: req.thinkingLevel as ThinkingLevel };
  if (req.temperature !== undefined) config.temperature = req.temperature;
  Object.assign(config, requestTools(req.catalog.declarations, req.googleTools ?? [], req.functionCalling as FunctionCallingConfigMode));
  return config;
}

async function callModel(req: AgentRequest, contents: Content[], base: GenerateContentConfig, step: number): Promise<ModelReply> {
  // One controller per request, its timer cleared when the request ends: AbortSignal.timeout()
  // timers live on for the whole timeout and AbortSignal.any() ties every request to the node's
  // long-lived close signal, both of which pile up over thousands of requests.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  const onClose = () => controller.abort();
  req.signal?.addEventListener('abort', onClose, { once: true });
  if (req.signal?.aborted) controller.abort();
  // Fresh copies per request: the SDK rewrites some config objects in place.
  const params = { model: req.model, contents: [...contents], config: { ...base, abortSignal: controller.signal } };
  try {
    if (!req.stream) return replyOf(await req.client.models.generateContent(params));
    const parts: Part[] = [];
    let last: ModelReply = {};
    let role: string | undefined;
    const metadata: Pick<Candidate, 'groundingMetadata' | 'urlContextMetadata'> = {};
    for await (const chunk of await req.client.models.generateContentStream(params)) {
      const reply = replyOf(chunk);
      const candidate = chunk.candidates?.[0];
      if (candidate?.groundingMetadata) metadata.groundingMetadata = candidate.groundingMetadata;
      if (candidate?.urlContextMetadata) metadata.urlContextMetadata = candidate.urlContextMetadata;
      const chunkParts = reply.content?.parts ?? [];
      role ??= reply.content?.role;
      parts.push(...chunkParts);
      const text = textOf(chunkParts);
      if (text && req.onText) req.onText(text, step);
      last = { ...last, ...definedOnly(reply) };
    }
    // Grounding metadata comes with one chunk (usually the last); code parts may be spread over several.
    return { ...last, content: parts.length ? { role: role ?? 'model', parts } : undefined, google: googleToolUse(parts, metadata) };
  } catch (err) {
    const e = timedOut && !req.signal?.aborted ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : err;
    throw toGeminiError(e, { secrets: req.secrets, timeoutMs: req.timeoutMs, endpoint: req.endpoint });
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onClose);
  }
}

function definedOnly(reply: ModelReply): Partial<ModelReply> {
  const out: Partial<ModelReply> = {};
  for (const [k, v] of Object.entries(reply)) if (v !== undefined && k !== 'content' && k !== 'google') (out as Record<string, unknown>)[k] = v;
  return out;
}

function replyOf(r: GenerateContentResponse): ModelReply {
  const candidate = r.candidates?.[0];
  const blocked = !candidate && r.promptFeedback?.blockReason ? String(r.promptFeedback.blockReason) : undefined;
  return {
    content: candidate?.content,
    google: googleToolUse(candidate?.content?.parts ?? [], candidate),
    finishReason: candidate?.finishReason ? String(candidate.finishReason) : undefined,
    usage: r.usageMetadata ? pickUsage(r.usageMetadata) : undefined,
    blocked,
    modelVersion: r.modelVersion,
  };
}

/** Text the person should read: text parts that are not thought summaries. */
function textOf(parts: Part[]): string {
  return parts
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
}

function pendingTrace(catalog: ToolCatalog, name: string, args: Record<string, unknown>, id?: string): TraceCall {
  const route = catalog.routes.get(name);
  return { ...(id !== undefined ? { id } : {}), name, server: route?.server, tool: route?.tool, args, isError: false, durationMs: 0 };
}

function pickUsage(u: NonNullable<GenerateContentResponse['usageMetadata']>): Usage {
  const out: Usage = {};
  if (u.promptTokenCount !== undefined) out.promptTokenCount = u.promptTokenCount;
  if (u.candidatesTokenCount !== undefined) out.candidatesTokenCount = u.candidatesTokenCount;
  if (u.thoughtsTokenCount !== undefined) out.thoughtsTokenCount = u.thoughtsTokenCount;
  if (u.totalTokenCount !== undefined) out.totalTokenCount = u.totalTokenCount;
  return out;
}

function addUsage(total: Usage, u?: Usage): void {
  if (!u) return;
  for (const k of ['promptTokenCount', 'candidatesTokenCount', 'thoughtsTokenCount', 'totalTokenCount'] as const) {
    if (u[k] !== undefined) total[k] = (total[k] ?? 0) + u[k]!;
  }
}

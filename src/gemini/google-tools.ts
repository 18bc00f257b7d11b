// Google's own tools (Search, URL context, code execution) in the same request as the MCP tools.
// Gemini runs them itself: nothing of ours executes them, so approval rules never see them. What
// they did comes back beside the answer: grounding metadata (the searches and the pages used),
// URL-context metadata (each page and whether it could be read) and code parts (the program and
// its output). That is what a flow author needs to show sources or check a computation.
import type { Candidate, Part, Tool, ToolConfig } from '@google/genai';

export const GOOGLE_TOOLS = ['googleSearch', 'urlContext', 'codeExecution'] as const;
export type GoogleTool = (typeof GOOGLE_TOOLS)[number];

/** What Google's tools did in one model turn (only what happened is set). */
export interface GoogleToolUse {
  /** The queries Google Search ran. */
  searches?: string[];
  /** The pages the answer is grounded on. */
  sources?: Array<{ uri: string; title?: string }>;
  /** Pages URL context fetched, with Gemini's status for each. */
  urls?: Array<{ url: string; status?: string }>;
  /** Programs code execution ran, each with its outcome and output. */
  code?: Array<{ language?: string; code: string; outcome?: string; output?: string }>;
}

/**
 * The request's tools: the MCP functions, then Google's. Combined, Gemini must be told to return
 * its own tool invocations in the content (`includeServerSideToolInvocations`), so the history we
 * send back holds every part of the turn.
 */
export function requestTools(
  declarations: NonNullable<Tool['functionDeclarations']>,
  google: readonly GoogleTool[],
  functionCalling: string,
): { tools?: Tool[]; toolConfig?: ToolConfig } {
  const tools: Tool[] = [];
  if (declarations.length) tools.push({ functionDeclarations: declarations });
  for (const name of google) tools.push({ [name]: {} } as Tool);
  if (tools.length === 0) return {};
  const toolConfig: ToolConfig = {};
  if (declarations.length) toolConfig.functionCallingConfig = { mode: functionCalling as NonNullable<ToolConfig['functionCallingConfig']>['mode'] };
  if (declarations.length && google.length) toolConfig.includeServerSideToolInvocations = true;
  return { tools, ...(Object.keys(toolConfig).length ? { toolConfig } : {}) };
}

/** What Google's tools did, from a turn's parts and its candidate's metadata; undefined when nothing. */
export function googleToolUse(parts: Part[], candidate?: Pick<Candidate, 'groundingMetadata' | 'urlContextMetadata'>): GoogleToolUse | undefined {
  const use: GoogleToolUse = {};
  const grounding = candidate?.groundingMetadata;
  const searches = (grounding?.webSearchQueries ?? []).filter((q): q is string => typeof q === 'string' && q !== '');
  if (searches.length) use.searches = searches;
  const sources = (grounding?.groundingChunks ?? [])
    .map((c) => c.web)
    .filter((w): w is NonNullable<typeof w> => !!w?.uri)
    .map((w) => ({ uri: w.uri!, ...(w.title ? { title: w.title } : {}) }));
  if (sources.length) use.sources = sources;
  const urls = (candidate?.urlContextMetadata?.urlMetadata ?? [])
    .filter((u) => !!u.retrievedUrl)
    .map((u) => ({ url: u.retrievedUrl!, ...(u.urlRetrievalStatus ? { status: String(u.urlRetrievalStatus) } : {}) }));
  if (urls.length) use.urls = urls;
  // A result follows the program it belongs to.
  const code: NonNullable<GoogleToolUse['code']> = [];
  for (const part of parts) {
    if (part.executableCode?.code !== undefined) {
      code.push({ ...(part.executableCode.language ? { language: String(part.executableCode.language) } : {}), code: part.executableCode.code });
    } else if (part.codeExecutionResult && code.length) {
      const last = code[code.length - 1];
      if (part.codeExecutionResult.outcome) last.outcome = String(part.codeExecutionResult.outcome);
      if (part.codeExecutionResult.output !== undefined) last.output = part.codeExecutionResult.output;
    }
  }
  if (code.length) use.code = code;
  return Object.keys(use).length ? use : undefined;
}

/** Every turn's use added up, for msg.gemini.google. */
export function combinedUse(uses: Array<GoogleToolUse | undefined>): GoogleToolUse | undefined {
  const all: GoogleToolUse = {};
  for (const use of uses) {
    if (!use) continue;
    for (const key of ['searches', 'sources', 'urls', 'code'] as const) {
      if (use[key]) (all[key] as unknown[]) = [...((all[key] as unknown[]) ?? []), ...(use[key] as unknown[])];
    }
  }
  return Object.keys(all).length ? all : undefined;
}

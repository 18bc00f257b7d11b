// The request checks the real Gemini API applies, each switchable, with the real 400 texts
// (https://ai.google.dev/gemini-api/docs/function-calling, https://ai.google.dev/gemini-api/docs/thought-signatures, https://ai.google.dev/api/caching#Schema). A rule violation answers 400 exactly as Gemini
// would, so the client under test sees what it would see in production.
import { declarationProblems } from './declarations';

export interface StrictRules {
  /** Only roles user/model. */
  roles: boolean;
  /** As many functionResponse parts as functionCall parts, right after the call turn; response is an object. */
  counts: boolean;
  /** functionResponse ids equal the ids the fake issued, in the same order. */
  ids: boolean;
  /** gemini-3* models: the first call of each step of the current turn carries the issued signature, byte for byte. */
  signatures: boolean;
  /** Tool declarations valid for the API (names, schemas), judged by the schema compiler's validator. */
  declarations: boolean;
  /** generationConfig.thinkingConfig: a thinking level the API knows, never beside a thinking budget. */
  thinking: boolean;
}

export const ALL_RULES: StrictRules = { roles: true, counts: true, ids: true, signatures: true, declarations: true, thinking: true };

/** ThinkingLevel of the API (https://ai.google.dev/gemini-api/docs/thinking), as the REST JSON spells it. */
const THINKING_LEVELS = ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];

/** What the fake remembers about the calls it issued, to check what comes back. */
export interface IssuedCall {
  id?: string;
  name: string;
  signature?: string;
}

export function requiresSignatures(model: string): boolean {
  return /^gemini-3/.test(model.replace(/^models\//, ''));
}

const COUNT_MESSAGE = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

export function violations(body: any, model: string, rules: StrictRules, issued: Map<string, IssuedCall>, signaturesIssued: Set<string>): string[] {
  const problems: string[] = [];
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
  if (rules.roles) {
    contents.forEach((c, i) => {
      if (c.role !== undefined && c.role !== 'user' && c.role !== 'model') {
        problems.push(`Please use a valid role: user, model. (contents[${i}].role = ${JSON.stringify(c.role)})`);
      }
    });
  }
  const thinking = body?.generationConfig?.thinkingConfig;
  if (rules.thinking && thinking && typeof thinking === 'object') {
    if (thinking.thinkingLevel !== undefined && !THINKING_LEVELS.includes(thinking.thinkingLevel)) {
      problems.push(
        `Invalid value at 'generation_config.thinking_config.thinking_level' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.ThinkingConfig.ThinkingLevel), ${JSON.stringify(thinking.thinkingLevel)}`,
      );
    }
    if (thinking.thinkingLevel !== undefined && thinking.thinkingBudget !== undefined)
      problems.push('Thinking level and thinking budget cannot be set together.');
  }
  if (rules.declarations && Array.isArray(body?.tools)) {
    // Google's built-in tools beside function declarations need the server-side invocations back in
    // the content (https://ai.google.dev/gemini-api/docs/tool-combination); without, the API refuses.
    const builtIn = body.tools.some((t: any) => t && (t.googleSearch || t.urlContext || t.codeExecution));
    const functions = body.tools.some((t: any) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length);
    if (builtIn && functions && body.toolConfig?.includeServerSideToolInvocations !== true) {
      problems.push('Tool use with function calling is unsupported unless include_server_side_tool_invocations is set.');
    }
    const seen = new Set<string>();
    problems.push(...declarationProblems(body.tools));
    body.tools.forEach((tool: any) => {
      if (!Array.isArray(tool?.functionDeclarations)) return;
      for (const d of tool.functionDeclarations) {
        if (seen.has(d.name)) problems.push(`Duplicate function declaration found: ${d.name}`);
        seen.add(d.name);
      }
    });
  }
  contents.forEach((c, i) => {
    const calls = (c.parts ?? []).filter((p: any) => p.functionCall);
    if (c.role !== 'model' || calls.length === 0) return;
    const next = contents[i + 1];
    const responses = (next?.parts ?? []).filter((p: any) => p.functionResponse);
    if (rules.counts) {
      if (!next || next.role !== 'user' || responses.length !== calls.length || responses.length !== (next.parts ?? []).length) {
        problems.push(COUNT_MESSAGE);
        return;
      }
      responses.forEach((p: any, k: number) => {
        const r = p.functionResponse.response;
        if (!r || typeof r !== 'object' || Array.isArray(r)) {
          problems.push(`Invalid value at 'contents[${i + 1}].parts[${k}].function_response.response' (type.googleapis.com/google.protobuf.Struct)`);
        }
      });
    }
    if (rules.ids) {
      calls.forEach((p: any, k: number) => {
        const callId = p.functionCall.id;
        if (callId === undefined || !issued.has(callId)) return;
        const got = responses[k]?.functionResponse?.id;
        if (got !== callId) problems.push('functionResponse.id does not match functionCall.id');
      });
    }
  });
  if (rules.signatures && requiresSignatures(model)) {
    // Only the current turn is validated: everything after the last user content with ordinary text.
    let start = 0;
    contents.forEach((c, i) => {
      if (c.role === 'user' && (c.parts ?? []).some((p: any) => typeof p.text === 'string')) start = i;
    });
    contents.slice(start).forEach((c, offset) => {
      if (c.role !== 'model') return;
      const parts = c.parts ?? [];
      const first = parts.findIndex((p: any) => p.functionCall);
      if (first < 0) return;
      const part = parts[first];
      const expected = part.functionCall.id !== undefined ? issued.get(part.functionCall.id)?.signature : undefined;
      const ok =
        typeof part.thoughtSignature === 'string' &&
        (expected === undefined ? signaturesIssued.has(part.thoughtSignature) : part.thoughtSignature === expected);
      if (!ok) {
        problems.push(
          'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. ' +
            `Additional data, function call \`default_api:${part.functionCall.name}\` , position ${start + offset + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
        );
      }
    });
  }
  return problems;
}

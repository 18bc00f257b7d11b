// A fake Gemini API on 127.0.0.1 for the real @google/genai client (reached through
// httpOptions.baseUrl). It speaks the REST wire format of https://ai.google.dev/api/generate-content (and what @google/genai sends):
// the pinned /v1beta/ (others on request); :generateContent and :streamGenerateContent?alt=sse (every event
// ended by a blank line, CRLF as the real server); Google error bodies; and enforces the server's
// rules (./rules.ts). Each test scripts its answers and reads back every request it received.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ALL_RULES, requiresSignatures, violations, type IssuedCall, type StrictRules } from './rules';
import type { RecordedRequest, ScriptEntry, Step } from './script';
import { attachLive, type FakeLive } from './live';

export { reply } from './script';
export type { RecordedRequest, ScriptEntry, Step } from './script';
export type { StrictRules } from './rules';
export { ANSWER_PCM, type FakeLive, type LiveTurn, type LiveSessionRecord } from './live';

export interface FakeGeminiOptions {
  apiKey?: string;
  /**
   * The API versions it answers on (default: the one the package pins, v1beta). Any other path is a
   * 404, so a client whose version moved (as @google/genai 3 moved its default to v1) fails loudly.
   */
  apiVersions?: string[];
  strict?: Partial<StrictRules>;
}

export interface FakeGemini {
  url: string;
  port: number;
  apiKey: string;
  requests: RecordedRequest[];
  rules: StrictRules;
  /** Queue answers for the next model requests, in order. */
  script(...entries: ScriptEntry[]): void;
  /** Entries not consumed yet. */
  pending(): number;
  /** The Live API (BidiGenerateContent WebSocket) on the same port. */
  live: FakeLive;
  close(): Promise<void>;
}

/** The Gemini API version the package pins (docs/gemini.md). */
export const PINNED_API_VERSION = 'v1beta';

const ROUTE = /^\/(v1|v1beta|v1alpha)\/((?:models|tunedModels)\/[^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const apiKey = options.apiKey ?? 'fake-gemini-key-0123456789';
  const apiVersions = options.apiVersions ?? [PINNED_API_VERSION];
  const rules: StrictRules = { ...ALL_RULES, ...options.strict };
  const queue: ScriptEntry[] = [];
  const requests: RecordedRequest[] = [];
  const issued = new Map<string, IssuedCall>();
  const signaturesIssued = new Set<string>();
  const sockets = new Set<Socket>();
  let counter = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err) => {
        sendError(res, 500, 'INTERNAL', `fake-gemini: ${err?.message ?? err}`, false);
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse, text: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = ROUTE.exec(url.pathname);
    if (req.method !== 'POST' || !m) {
      sendError(res, 404, 'NOT_FOUND', `Method not found: ${req.method} ${url.pathname}`, false);
      return;
    }
    const [, version, modelPath, method] = m;
    if (!apiVersions.includes(version)) {
      sendError(res, 404, 'NOT_FOUND', `fake-gemini answers on ${apiVersions.map((v) => `/${v}/`).join(', ')} only, not ${url.pathname}`, false);
      return;
    }
    const model = modelPath.replace(/^models\//, '');
    const streaming = method === 'streamGenerateContent';
    const key = (req.headers['x-goog-api-key'] as string | undefined) ?? url.searchParams.get('key') ?? undefined;
    if (!key) {
      sendError(
        res,
        403,
        'PERMISSION_DENIED',
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        streaming,
      );
      return;
    }
    if (key !== apiKey) {
      sendError(res, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', streaming, [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]);
      return;
    }
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      sendError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', streaming);
      return;
    }
    if (method === 'countTokens') {
      sendJson(res, { totalTokens: JSON.stringify(body.contents ?? []).length >> 2 });
      return;
    }
    const problems = violations(body, model, rules, issued, signaturesIssued);
    if (/-tts$|-tts-/.test(model) && !(body.generationConfig?.responseModalities ?? []).includes('AUDIO')) {
      problems.push('The requested combination of response modalities (TEXT) is not supported by the model.');
    }
    const record: RecordedRequest = { version, model, method, url: req.url ?? '', headers: req.headers, body, violations: problems };
    requests.push(record);
    if (problems.length > 0) {
      sendError(res, 400, 'INVALID_ARGUMENT', problems[0], streaming);
      return;
    }
    const entry = queue.shift();
    if (!entry) {
      sendError(res, 500, 'INTERNAL', 'fake-gemini: no scripted response left for this request', streaming);
      return;
    }
    const step = typeof entry === 'function' ? entry(record) : entry;
    if (step.delayMs) {
      // A client that gives up (abort, timeout) closes the connection while we wait; the wait ends
      // with it, so no timer outlives the request.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, step.delayMs);
        res.on('close', () => {
          if (!res.writableFinished) record.aborted = true;
          clearTimeout(timer);
          resolve();
        });
      });
      if (record.aborted) return;
    }
    respond(res, step, model, body, streaming);
  }

  function usage(body: any) {
    const prompt = 10 * (Array.isArray(body.contents) ? body.contents.length : 1);
    return { promptTokenCount: prompt, candidatesTokenCount: 5, totalTokenCount: prompt + 5 };
  }

  function respond(res: ServerResponse, step: Step, model: string, body: any, streaming: boolean): void {
    const responseId = `r-${++counter}`;
    const envelope = (candidates: unknown[] | undefined, extra: Record<string, unknown> = {}) => ({
      ...(candidates ? { candidates } : {}),
      ...extra,
      usageMetadata: usage(body),
      modelVersion: model,
      responseId,
    });
    switch (step.kind) {
      case 'error':
        sendError(res, step.status, step.googleStatus, step.message, streaming, step.details);
        return;
      case 'audio':
        sendJson(
          res,
          envelope([
            {
              content: { role: 'model', parts: [{ inlineData: { mimeType: step.mimeType, data: step.data.toString('base64') } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ]),
        );
        return;
      case 'raw':
        if (streaming) sendEvents(res, [step.body]);
        else sendJson(res, step.body);
        return;
      case 'unreadable':
        res.writeHead(200, { 'Content-Type': streaming ? 'text/event-stream' : 'application/json; charset=UTF-8' });
        res.end(streaming ? `data: ${step.body}\r\n\r\n` : step.body);
        return;
      case 'endless': {
        if (!streaming) return; // holds the request open without a word
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        const tick = setInterval(() => {
          res.write('data: ' + JSON.stringify(envelope([{ content: { role: 'model', parts: [{ text: 'more ' }] }, index: 0 }])) + '\r\n\r\n');
        }, step.everyMs);
        res.on('close', () => clearInterval(tick));
        return;
      }
      case 'blocked': {
        const b = envelope(undefined, { promptFeedback: { blockReason: step.reason, safetyRatings: [] } });
        if (streaming) sendEvents(res, [b]);
        else sendJson(res, b);
        return;
      }
      case 'midStreamError': {
        const first = envelope([{ content: { role: 'model', parts: [{ text: 'Partial ' }] }, index: 0 }]);
        const err = { error: { code: step.status, message: step.message, status: step.googleStatus } };
        if (streaming) sendEvents(res, [first, err]);
        else sendError(res, step.status, step.googleStatus, step.message, false);
        return;
      }
      case 'text': {
        if (!streaming) {
          sendJson(res, envelope([{ content: { role: 'model', parts: [{ text: step.text }] }, finishReason: step.finishReason ?? 'STOP', index: 0 }]));
          return;
        }
        const pieces = step.chunks ?? halves(step.text);
        sendEvents(
          res,
          pieces.map((p, i) =>
            envelope([
              {
                content: { role: 'model', parts: [{ text: p }] },
                ...(i === pieces.length - 1 ? { finishReason: step.finishReason ?? 'STOP' } : {}),
                index: 0,
              },
            ]),
          ),
        );
        return;
      }
      case 'calls': {
        const gemini3 = requiresSignatures(model);
        const withIds = step.ids === undefined ? gemini3 : step.ids !== false;
        const signature = step.signature === false ? undefined : (step.signature ?? (gemini3 ? signatureFor(responseId) : undefined));
        const parts: any[] = [];
        if (step.text) parts.push({ text: step.text });
        step.calls.forEach((c, i) => {
          const id = Array.isArray(step.ids) ? step.ids[i] : withIds ? `fc-${counter}-${i + 1}` : undefined;
          const part: any = { functionCall: { ...(id !== undefined ? { id } : {}), name: c.name, args: c.args ?? {} } };
          if (i === 0 && signature) {
            part.thoughtSignature = signature;
            signaturesIssued.add(signature);
          }
          if (id !== undefined) issued.set(id, { id, name: c.name, signature: i === 0 ? signature : undefined });
          parts.push(part);
        });
        const candidate = { content: { role: 'model', parts }, finishReason: 'STOP', finishMessage: 'Model generated function call(s).', index: 0 };
        if (!streaming) sendJson(res, envelope([candidate]));
        else if (!step.splitFinal) sendEvents(res, [envelope([candidate])]);
        else {
          sendEvents(res, [
            envelope([{ content: { role: 'model', parts }, index: 0 }]),
            envelope([{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }]),
          ]);
        }
        return;
      }
    }
  }

  const live = attachLive(server, apiKey, apiVersions);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    apiKey,
    requests,
    rules,
    script: (...entries) => void queue.push(...entries),
    pending: () => queue.length,
    live,
    close: () =>
      new Promise<void>((resolve) => {
        live.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function halves(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

function signatureFor(responseId: string): string {
  return Buffer.from(`fake-thought-signature:${responseId}:${Math.random()}`).toString('base64');
}

function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

function sendEvents(res: ServerResponse, events: unknown[]): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  for (const e of events) res.write('data: ' + JSON.stringify(e) + '\r\n\r\n');
  res.end();
}

/** Google error body; streaming requests get it pretty-printed as text/event-stream, as the real API does. */
function sendError(res: ServerResponse, status: number, googleStatus: string, message: string, streaming: boolean, details?: unknown[]): void {
  const body = { error: { code: status, message, status: googleStatus, ...(details ? { details } : {}) } };
  if (res.headersSent) return;
  if (streaming) {
    res.writeHead(status, { 'Content-Type': 'text/event-stream' });
    res.end(JSON.stringify(body, null, 2));
  } else sendJson(res, body, status);
}

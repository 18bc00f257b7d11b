// Fixes to the MCP SDK applied while bundling (scripts/bundle-runtime.mjs), each kept until the SDK
// ships it. A patch that no longer finds its text fails the build: an SDK update must be looked at,
// not silently run unpatched.
//
// 1. Lazy validation messages. Before every request the SDK asks its wire codec whether the method
//    exists in the negotiated revision by validating `undefined` against the result schema
//    (`codecResultValidator`'s probe). That fails, as meant, and the codec turns the failure into
//    text at once: Zod builds its error class, every issue and the message, ~60 µs of the ~0.3 ms a
//    bare `tools/call` costs the client, and nobody reads it. The message becomes a getter, built
//    only when read. (bench/peers.ts measures it: `npm run bench:peers`.)
// 2. The handshake check looks at `method` first. The client's Streamable HTTP transport asks of
//    every message it sends, and the server's of every message posted to it, whether it is the
//    `initialize` request, by validating the whole message against that request's schema: a Zod
//    parse per message that fails for every other method (2 % of a call's CPU in the side-by-side
//    bench's profile). The schema pins `method` to the literal "initialize", so comparing it first
//    gives the same answer, and only an `initialize` request is still parsed.
// Each patch names its `exit`: the upstream change to the SDK (modelcontextprotocol/typescript-sdk)
// after which it finds nothing to replace and can be deleted.
// 3. "Connection closed" is made only for someone to tell. When a connection closes, the SDK builds
//    an SdkError (with its stack) to fail the requests still waiting on it, also when none are. The
//    2026-07-28 server closes one such connection per request it answers, so every call paid for an
//    error nobody saw (3 % of the endpoint's CPU in bench:endpoint's profile). It is now built when
//    a waiting request or a running handler is there to receive it.
//    A handler counts as running until its answer is sent (5. below): the 2026-07-28 server closes
//    its per-request connection in a microtask right after the answer, before the SDK's own
//    bookkeeping let go of the handler, so without 5 the error was still built for every call.
// 4. JSON answers without a web stream. The 2026-07-28 server answers each JSON-reply request with
//    `Response.json()`: undici's Response, its Headers and a ReadableStream around the text, which
//    the endpoint then read back to write to the socket (7 % of the endpoint's CPU in bench:endpoint's
//    profile). Those two calls make a JsonAnswer instead (src/server/http/json-answer.ts): a Response to
//    whoever holds it, whose text the endpoint writes as it is; a real Response is made only when
//    something asks for more than its status and headers.
// 5. A handler is done once its answer is on its way. The SDK forgets a request handler's abort
//    controller only after sending its answer, a few microtasks later; a connection closed in
//    between (the 2026-07-28 server closes each per-request connection right after the answer)
//    aborted the finished handler with a "Connection closed" error, built with its stack per call
//    (3 % of the endpoint's CPU). The controller is now let go just before the answer is sent. Until
//    then a cancel still reaches the handler, as before; after it nobody listens any more.
// 6. Each message read is checked against the one schema that can accept it first. The SDK parses
//    every reply, event and stdio line with the union of the four message schemas in order, so a
//    result was refused by two schemas (each building its issues) before the third accepted it (about
//    4 % of a tool call's CPU). src/mcp/message-parse.ts tries the member the message's keys point
//    to, and anything it refuses goes through the SDK's own union: the same result, the same error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The engine's sources; the build passes its compiled copy (dist/src) so the bundle holds one.
const ENGINE = fileURLToPath(new URL('../src', import.meta.url));

export const SDK_PATCHES = [
  {
    name: 'lazy codec validation message',
    files: /@modelcontextprotocol[\\/](client|server)[\\/]dist[\\/]src-[^\\/]+\.cjs$/,
    find: 'message: String(parsed.error)',
    replace: 'get message() { return String(parsed.error); }',
    exit: "the codec's method probe (codecResultValidator) asks whether a method exists without validating, or builds the failure's message only when read",
    // Both wire codecs (the 2025 revisions' and 2026-07-28's) have one triState each.
    count: 2,
  },
  {
    name: 'initialize check looks at method first',
    files: /@modelcontextprotocol[\\/](client|server)[\\/]dist[\\/]src-[^\\/]+\.cjs$/,
    find: 'const isInitializeRequest = (value) => _modelcontextprotocol_core_internal.InitializeRequestSchema.safeParse(value).success;',
    replace:
      'const isInitializeRequest = (value) => typeof value === "object" && value !== null && value.method === "initialize" && _modelcontextprotocol_core_internal.InitializeRequestSchema.safeParse(value).success;',
    exit: 'isInitializeRequest compares `method` before it parses the message',
    count: 1,
  },
  {
    name: 'connection-closed error only when someone waits',
    files: /@modelcontextprotocol[\\/](client|server)[\\/]dist[\\/]src-[^\\/]+\.cjs$/,
    find: 'const error = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed");',
    replace:
      'const error = responseHandlers.size || requestHandlerAbortControllers.size ? new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed") : void 0;',
    exit: "Protocol's close builds its ConnectionClosed error only when a response handler or a running request handler is there to get it",
    count: 1,
  },
  ...['response', 'errorResponse'].map((answer) => ({
    name: `handler done before its answer is sent (${answer})`,
    files: /@modelcontextprotocol[\\/](client|server)[\\/]dist[\\/]src-[^\\/]+\.cjs$/,
    find: `await capturedTransport?.send(${answer});`,
    replace: `if (this._requestHandlerAbortControllers.get(request.id) === abortController) this._requestHandlerAbortControllers.delete(request.id); await capturedTransport?.send(${answer});`,
    exit: "Protocol forgets a request handler's abort controller before it sends the handler's answer",
    count: 1,
  })),
  {
    name: 'message parse tries the likely schema first',
    files: /@modelcontextprotocol[\\/](client|server)[\\/]dist[\\/](index|src-[^\\/]+)\.cjs$/,
    find: '_modelcontextprotocol_core_internal.JSONRPCMessageSchema.parse(',
    replace: '__mcpParseMessage(_modelcontextprotocol_core_internal, ',
    // Per file: the client's transports (Streamable HTTP replies and events, SSE), the server's
    // request body, and in both packages the stdio reader and parseJSONRPCMessage.
    count: { 'client/index': 5, 'client/src': 2, 'server/index': 2, 'server/src': 2 },
    prepend: (engine) => `const { parseMessage: __mcpParseMessage } = require(${JSON.stringify(join(engine, 'mcp', 'message-parse'))});\n`,
    exit: 'JSONRPCMessageSchema becomes a discriminated parse (by the keys present) instead of a union tried in order',
  },
  {
    name: 'JSON answers without a web stream',
    files: /@modelcontextprotocol[\\/]server[\\/]dist[\\/]mcp-[^\\/]+\.cjs$/,
    find: 'this.settleResponse(Response.json(message, {',
    replace: 'this.settleResponse(__mcpJsonAnswer(message, {',
    // The ladder's error answer and the result.
    count: 2,
    prepend: (engine) => `const { jsonAnswer: __mcpJsonAnswer } = require(${JSON.stringify(join(engine, 'server', 'http', 'json-answer'))});\n`,
    exit: 'the per-request server transport writes a JSON answer as text (or takes a response factory) instead of Response.json()',
  },
];

/**
 * The esbuild plugin that applies SDK_PATCHES; `applied` counts replacements per patch and file.
 * `engine` is the folder of the engine the bundle uses (src/, or its compiled copy).
 */
export function sdkPatchPlugin(applied = new Map(), engine = ENGINE) {
  return {
    name: 'sdk-patches',
    setup(build) {
      build.onLoad({ filter: /@modelcontextprotocol[\\/].*\.cjs$/ }, (args) => {
        const patches = SDK_PATCHES.filter((p) => p.files.test(args.path));
        if (patches.length === 0) return undefined;
        let contents = readFileSync(args.path, 'utf8');
        for (const patch of patches) {
          const found = contents.split(patch.find).length - 1;
          if (found === 0) continue;
          const expected = expectedCount(patch, args.path);
          if (found !== expected) throw new Error(`SDK patch "${patch.name}": expected ${expected} occurrences in ${args.path}, found ${found}`);
          contents = (patch.prepend?.(engine) ?? '') + contents.split(patch.find).join(patch.replace);
          applied.set(`${patch.name} ${args.path}`, found);
        }
        return { contents, loader: 'js' };
      });
    },
  };
}

/** How often `patch` finds its text in `file`: one count for all files, or one per package and file kind. */
export function expectedCount(patch, file) {
  if (typeof patch.count === 'number') return patch.count;
  const m = /[\\/](client|server)[\\/]dist[\\/](index|src)[-.]/.exec(file);
  return (m && patch.count[`${m[1]}/${m[2]}`]) ?? 0;
}

// The tools the conformance suite's server scenarios call (test_*), built as a Node-RED flow:
// mcp-tool-in → function → mcp-tool-out, answering exactly as each scenario's text asks.
import type { FlowNode } from './harness';

// 1x1 red PNG and a 1-sample 8 kHz WAV: the smallest real files of each type.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';

const tool = (name: string, description: string, func: string, settings: Record<string, unknown> = {}): FlowNode[] => [
  { id: `in-${name}`, type: 'mcp-tool-in', endpoint: 'ep', name, description, ...settings, wires: [[`fn-${name}`]] },
  { id: `fn-${name}`, type: 'function', func, wires: [['out']] },
];

const schema = (properties: Record<string, unknown>) => JSON.stringify({ type: 'object', properties });
const longRunning = (taskLimit: number, properties: Record<string, unknown> = {}) => ({ longRunning: true, taskLimit, inputSchema: schema(properties) });
/** Past the moment a Long-running call waits before it becomes a task (TASK_AFTER_MS), so the question goes to the task. */
const ONCE_A_TASK_MS = 1200;

/**
 * The tasks extension's fixtures (2026-07-28 scenarios tasks-*), as flows: each scenario's text
 * names these tools and what they do. A Long-running tool that answers or asks within half a
 * second is answered directly; these take longer, so the client gets a task.
 */
function taskTools(): FlowNode[] {
  return [
    ...tool('greet', 'Greets by name (never a task).', 'msg.payload = `Hello, ${msg.payload.name}!`; return msg;', {
      inputSchema: schema({ name: { type: 'string' } }),
    }),
    ...tool(
      'slow_compute',
      'Sleeps `seconds`, then answers.',
      'setTimeout(() => { msg.payload = `Computed ${msg.payload.label || "it"} after ${msg.payload.seconds} s`; node.send(msg); }, (msg.payload.seconds || 0) * 1000); return null;',
      longRunning(120, { seconds: { type: 'number' }, label: { type: 'string' } }),
    ),
    ...tool(
      'failing_job',
      'Fails as a tool after a second.',
      'setTimeout(() => { msg.payload = "The job failed."; msg.isError = true; node.send(msg); }, 1000); return null;',
      longRunning(60),
    ),
    // Never answers: the task fails at its one-second limit (the flow's own time ran out, not the tool).
    ...tool('protocol_error_job', 'Never answers; its task fails at its limit.', 'return null;', longRunning(1)),
    ...tool(
      'confirm_delete',
      'Asks the person to confirm, once it is a task.',
      [
        'if (msg.input) { msg.payload = msg.input.action === "accept" && msg.payload.confirm ? "Deleted." : "Kept."; return msg; }',
        `setTimeout(() => { msg.input = {message: "Delete " + msg.payload.filename + "?", schema: {type: "object", properties: {confirm: {type: "boolean"}}, required: ["confirm"]}}; node.send(msg); }, ${ONCE_A_TASK_MS});`,
        'return null;',
      ].join('\n'),
      longRunning(60, { filename: { type: 'string' } }),
    ),
    ...tool(
      'multi_input',
      'Asks two questions at once, once it is a task, and answers when both are answered.',
      [
        'if (msg.input) { const n = (context.get(msg._mcp.handle) || 0) + 1; context.set(msg._mcp.handle, n); if (n < 2) return null; context.set(msg._mcp.handle, undefined); msg.payload = "Both answered."; return msg; }',
        'const ask = (key) => Object.assign(RED.util.cloneMessage(msg), {input: {message: "Your " + key + "?", schema: {type: "object", properties: {name: {type: "string"}, confirm: {type: "boolean"}}}}});',
        `setTimeout(() => node.send([[ask("name"), ask("confirmation")]]), ${ONCE_A_TASK_MS});`,
        'return null;',
      ].join('\n'),
      longRunning(60),
    ),
    // Asks at once (answered by the client's retry), then works long enough to become a task.
    ...tool(
      'test_tool_with_task',
      'Asks for a name, then greets it as a task.',
      [
        'if (!msg.input) { msg.input = {message: "What is your name?", schema: {type: "object", properties: {name: {type: "string"}}, required: ["name"]}}; return msg; }',
        `setTimeout(() => { msg.payload = "Hello, " + msg.payload.name + "!"; delete msg.input; node.send(msg); }, ${ONCE_A_TASK_MS});`,
        'return null;',
      ].join('\n'),
      longRunning(60),
    ),
  ];
}

export function conformanceFlow(path = '/mcp'): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path, name: 'node-red-conformance', anonymous: true },
    ...tool('test_simple_text', 'Returns simple text.', 'msg.payload = "This is a simple text response for testing."; return msg;'),
    ...tool('test_image_content', 'Returns an image.', `msg.payload = Buffer.from("${PNG}", "base64"); msg.contentType = "image/png"; return msg;`),
    ...tool('test_audio_content', 'Returns audio.', `msg.payload = Buffer.from("${WAV}", "base64"); msg.contentType = "audio/wav"; return msg;`),
    ...tool(
      'test_embedded_resource',
      'Returns an embedded resource.',
      'msg.content = [{type: "resource", resource: {uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content."}}]; return msg;',
    ),
    ...tool(
      'test_multiple_content_types',
      'Returns text, an image and a resource.',
      `msg.content = [{type: "text", text: "Multiple content types test:"}, {type: "image", data: "${PNG}", mimeType: "image/png"}, {type: "resource", resource: {uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({test: "data", value: 123})}}]; return msg;`,
    ),
    ...tool('test_error_handling', 'Always fails.', 'msg.payload = "This tool intentionally returns an error for testing"; msg.isError = true; return msg;'),
    ...tool(
      'test_tool_with_progress',
      'Reports progress 0, 50, 100 of 100.',
      [
        'const step = (p) => node.send(Object.assign(RED.util.cloneMessage(msg), {topic: "progress", payload: {progress: p, total: 100}}));',
        'step(0);',
        'setTimeout(() => step(50), 50);',
        'setTimeout(() => { step(100); msg.payload = "Progress test completed"; node.send(msg); }, 100);',
        'return null;',
      ].join('\n'),
    ),
    // Lets server-stateless check that nothing is logged without a requested log level (we never log).
    ...tool('test_logging_tool', 'Answers without logging.', 'msg.payload = "done"; return msg;'),
    ...taskTools(),
    { id: 'out', type: 'mcp-tool-out' },
  ];
}

// The tools the conformance suite's server scenarios call (test_*), built as a Node-RED flow:
// mcp-tool-in → function → mcp-tool-out, answering exactly as each scenario's text asks.
import type { FlowNode } from './harness';

// 1x1 red PNG and a 1-sample 8 kHz WAV: the smallest real files of each type.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';

const tool = (name: string, description: string, func: string): FlowNode[] => [
  { id: `in-${name}`, type: 'mcp-tool-in', endpoint: 'ep', name, description, wires: [[`fn-${name}`]] },
  { id: `fn-${name}`, type: 'function', func, wires: [['out']] },
];

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
    { id: 'out', type: 'mcp-tool-out' },
  ];
}

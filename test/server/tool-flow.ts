// The flow most endpoint specs use: tools that echo, report progress, never answer, hang until
// cancelled, and throw (caught by a Catch wired to mcp-tool-out).
import type { FlowNode } from './harness';

export const echoSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

export function toolFlow(path = '/mcp'): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path, name: 'test-endpoint', instructions: 'Flows as tools.' },
    {
      id: 'in-echo',
      type: 'mcp-tool-in',
      endpoint: 'ep',
      name: 'echo',
      description: 'Echoes text.',
      inputSchema: echoSchema,
      annotations: { readOnlyHint: true },
      wires: [['echo-fn']],
    },
    { id: 'echo-fn', type: 'function', func: 'msg.payload = "echo: " + msg.payload.text + " from " + msg.mcp.client.name; return msg;', wires: [['out']] },
    { id: 'in-slow', type: 'mcp-tool-in', endpoint: 'ep', name: 'slow', wires: [['slow-fn']] },
    {
      id: 'slow-fn',
      type: 'function',
      func: 'node.send(Object.assign(RED.util.cloneMessage(msg), {topic:"progress", payload:{progress:1, total:2, message:"half way"}}));\nsetTimeout(() => { msg.payload = {done: true, steps: 2}; node.send(msg); }, 100);\nreturn null;',
      wires: [['out']],
    },
    { id: 'in-never', type: 'mcp-tool-in', endpoint: 'ep', name: 'never', timeout: 1, wires: [[]] },
    { id: 'in-hang', type: 'mcp-tool-in', endpoint: 'ep', name: 'hang', wires: [['hang-spy']] },
    { id: 'hang-spy', type: 'helper' },
    { id: 'in-boom', type: 'mcp-tool-in', endpoint: 'ep', name: 'boom', wires: [['boom-fn']] },
    { id: 'boom-fn', type: 'function', name: 'thermostat driver', func: 'throw new Error("sensor offline");', wires: [['out']] },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['out']] },
    { id: 'out', type: 'mcp-tool-out' },
  ];
}

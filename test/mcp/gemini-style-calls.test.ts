// A Gemini-style call {name, args} made against a gemini-schema declaration reaches the MCP tool
// under its real name and with its real argument names (dotted tool, dashed properties), in a flow:
// list tools (gemini-schema) -> function node plays the model -> mcp-call-tool.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { helper, load, nextMessage, send, startRuntime, stopRuntime } from '../helpers/runtime';

const oddServer = {
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', join(__dirname, '..', 'peers', 'odd-names-server.ts')],
};

describe('Gemini-style calls mapped back to MCP names', function () {
  this.timeout(30000);
  before(startRuntime);
  after(stopRuntime);
  afterEach(() => helper.unload());

  it('declared tool and argument names map back to the dotted tool and its dashed properties', async () => {
    await load([
      { id: 'srv', type: 'mcp-server', ...oddServer },
      { id: 'list', type: 'mcp-list-tools', server: 'srv', format: 'gemini-schema', wires: [['model']] },
      {
        id: 'model',
        type: 'function',
        // Plays the model: calls the first declared function with the declared parameter names.
        func: `const fd = msg.payload.functionDeclarations[0];
const props = Object.keys(fd.parameters.properties);
node.send({ declared: fd.name, props, payload: { name: fd.name, args: { [props[0]]: 'light.kitchen', [props[1]]: 40 } }, mcp: { names: msg.mcp.names } });`,
        outputs: 1,
        wires: [['call', 'seen']],
      },
      { id: 'seen', type: 'helper' },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', wires: [['out'], []] },
      { id: 'out', type: 'helper' },
    ]);
    const declared = nextMessage('seen');
    const result = nextMessage('out');
    send('list', {});
    const d = await declared;
    assert.match(d.declared, /^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
    assert.notEqual(d.declared, 'light.set');
    assert.ok(
      d.props.every((p: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(p)),
      `declared properties: ${d.props}`,
    );
    const msg = await result;
    assert.equal(msg.payload.tool, 'light.set');
    assert.deepEqual(msg.payload.received, { 'entity-id': 'light.kitchen', 'brightness-pct': 40 });
  });
});

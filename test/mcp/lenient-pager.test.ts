// The one tools/list pager, shared by MCP sessions and ESP32 devices: its guards say which limit
// they hit (a cursor seen before, or more than 1,000 pages), a name repeated on a later page is
// dropped with a warning, and the device path reads each page leniently through the same code.
import { directDeviceSession } from '../esp32/helpers';
import assert from 'node:assert/strict';
import type { DeviceSession } from '../../src/esp32/devices/device-session';
import { listAllTools, MAX_PAGES } from '../../src/mcp/lenient/list-all-tools';
import { McpNodeError } from '../../src/errors';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });

/**
 * A device session whose "firmware" answers tools/list with `page(cursor, n)` (n = page number
 * from 1), wired as MQTT would be (no hello), so the real DeviceSession pages through it.
 */
function deviceAnswering(page: (cursor: string, n: number) => unknown): { session: DeviceSession; requests: number } {
  const state = { session: undefined as unknown as DeviceSession, requests: 0 };
  state.session = directDeviceSession((payload, reply) => {
    if (payload.id === undefined) return; // notifications/initialized
    const result =
      payload.method === 'initialize'
        ? { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'board', version: '1' } }
        : page(payload.params.cursor, ++state.requests);
    reply(JSON.stringify({ jsonrpc: '2.0', id: payload.id, result }));
  });
  return state;
}

async function rejection(p: Promise<unknown>): Promise<McpNodeError> {
  try {
    await p;
  } catch (err) {
    return err as McpNodeError;
  }
  throw new Error('expected a rejection');
}

describe('the one tools/list pager', () => {
  it('an endless run of new cursors stops at the page limit and says so (not "repeated cursor")', async () => {
    const err = await rejection(
      listAllTools(async (cursor) => ({ items: [tool(`t${cursor ?? 0}`)], nextCursor: `c${Number((cursor ?? 'c0').slice(1)) + 1}`, warnings: [] }), 'srv'),
    );
    assert.equal(err.code, 'PAGINATION_LIMIT');
    assert.match(err.message, new RegExp(`after ${MAX_PAGES} pages \\(the limit; next cursor "c${MAX_PAGES}"\\)`));
    assert.doesNotMatch(err.message, /twice|repeated/);
  });

  it('a cursor seen before stops the walk and names both pages', async () => {
    const cursors = ['a', 'b', 'a'];
    let n = 0;
    const err = await rejection(listAllTools(async () => ({ items: [tool(`t${n}`)], nextCursor: cursors[n++], warnings: [] }), 'srv'));
    assert.equal(err.code, 'PAGINATION_LOOP');
    assert.match(err.message, /cursor "a" twice while listing tools \(pages 1 and 3\)/);
  });

  it('a name a later page repeats is dropped with a warning; page warnings are kept', async () => {
    const pages = [
      { items: [tool('a'), tool('b')], nextCursor: 'p2', warnings: [{ tool: 'x', path: 'name', message: 'left out' }] },
      { items: [tool('b'), tool('c')], warnings: [] },
    ];
    let n = 0;
    const listed = await listAllTools(async () => pages[n++], 'srv');
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['a', 'b', 'c'],
    );
    assert.equal(listed.pages, 2);
    assert.deepEqual(listed.warnings, [
      { tool: 'x', path: 'name', message: 'left out' },
      { tool: 'b', path: 'name', message: 'page 2 lists "b" again; only the first is kept' },
    ]);
  });

  it('an ESP32 device pages through the same pager: endless cursors end at the page limit with the same error', async () => {
    const device = deviceAnswering((cursor, n) => ({ tools: [tool(`self.t${n}`)], nextCursor: `self.t${n + 1}` }));
    const err = await rejection(device.session.start());
    assert.equal(err.code, 'PAGINATION_LIMIT');
    assert.match(err.message, /^ESP32 device aa:bb:cc:dd:ee:ff still had more tools after 1000 pages/);
    assert.equal(device.requests, MAX_PAGES);
  });

  it('an ESP32 device page is read leniently: a typeless tool repaired, a nameless one left out, a duplicate across pages dropped', async () => {
    const device = deviceAnswering((cursor) =>
      cursor === ''
        ? { tools: [{ name: 'self.a', inputSchema: { properties: {} } }, { inputSchema: { type: 'object' } }], nextCursor: 'self.b' }
        : { tools: [tool('self.b'), tool('self.a')] },
    );
    await device.session.start();
    assert.deepEqual(
      device.session.tools.map((t) => t.name),
      ['self.a', 'self.b'],
    );
    assert.deepEqual(device.session.tools[0].inputSchema, { type: 'object', properties: {} });
    assert.deepEqual(
      device.session.listWarnings.map((w) => `${w.tool} ${w.path}`),
      ['self.a inputSchema.type', 'tools[1] name', 'self.a name'],
    );
    device.session.handleClosed();
  });

  it('an ESP32 page without a tools array stays an error that says what came', async () => {
    const device = deviceAnswering(() => ({ items: [] }));
    const err = await rejection(device.session.start());
    assert.equal(err.code, 'BAD_RESULT');
    assert.match(err.message, /ESP32 device aa:bb:cc:dd:ee:ff: the tools\/list answer has no "tools" array \(got an object with "items"\)/);
  });
});

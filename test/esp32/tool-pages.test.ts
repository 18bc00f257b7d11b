// Tool pages shared between devices of the same firmware: read once, frozen, the same objects for
// every session that receives the same page; a different page is read on its own. The pages are
// those of the lichuang-dev board as the firmware sends them (the shared xiaozhi fixture).
import { strict as assert } from 'node:assert';
import { readToolPage } from '../../src/esp32/devices/tool-pages';
import { lichuangDev } from '../peers/xiaozhi-device';
import { FirmwareMcpServer } from '../peers/xiaozhi-device/firmware-mcp';

/** The first tools/list page as a device's firmware writes it, parsed as the listener parses it. */
async function firstPage(): Promise<unknown> {
  const firmware = new FirmwareMcpServer(lichuangDev());
  let text = '';
  firmware.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: '', withUserTools: true } }, (t) => (text = t));
  return JSON.parse(text).result;
}

describe('esp32: tool pages shared between devices', () => {
  it('two devices sending the same page share one frozen reading; flows cannot change it', async () => {
    const a = readToolPage(await firstPage());
    const b = readToolPage(await firstPage());
    assert.ok(a.items.length > 0);
    assert.equal(a, b, 'the second device gets the first reading');
    assert.ok(Object.isFrozen(a.items[0]) && Object.isFrozen((a.items[0] as any).inputSchema));
    assert.throws(() => {
      'use strict';
      (a.items[0] as any).description = 'changed';
    }, TypeError);
  });

  it('a page with other tools (another board, user tools) is read on its own', async () => {
    const page = (await firstPage()) as { tools: Array<Record<string, unknown>> };
    const other = { ...page, tools: [...page.tools.slice(1), { name: 'self.extra', description: 'x', inputSchema: { type: 'object' } }] };
    const a = readToolPage(page);
    const b = readToolPage(other);
    assert.notEqual(a, b);
    assert.ok(b.items.some((t) => t.name === 'self.extra'));
    assert.ok(!a.items.some((t) => t.name === 'self.extra'));
  });
});

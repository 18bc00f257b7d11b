// Properties of the device protocol pieces that example-based tests cannot cover: any tool list the
// firmware pages (multi-byte descriptions included, where bytes and characters differ) is read back
// whole and in order by the engine; MAC spellings and topic templates round-trip; ids stay integers
// below 2^31.
import { directDeviceSession } from './helpers';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DeviceSession } from '../../src/esp32/devices/device-session';
import { deviceIdFromMqttClientId, deviceTopicFor, macUnderscore, normalizeDeviceId, topicMatcher } from '../../src/esp32/devices/device-id';
import { IdAllocator } from '../../src/esp32/devices/rpc-client';
import { FirmwareMcpServer, type FirmwareTool } from '../peers/xiaozhi-device';

const macArb = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }).map((b) => b.map((x) => x.toString(16).padStart(2, '0')).join(':'));

/** A session wired straight to the simulated firmware, as MQTT would (no hello needed). */
function sessionOn(firmware: FirmwareMcpServer): DeviceSession {
  return directDeviceSession((payload, reply) => firmware.handle(payload, reply));
}

describe('esp32 protocol properties', () => {
  it('any tool list the firmware pages is listed whole and in order', async () => {
    let maxPages = 0;
    const toolArb = fc.record({
      description: fc.string({ unit: fc.constantFrom('a', 'é', '机', '😀', ' ', '"', '\\n'), minLength: 200, maxLength: 900, size: 'max' }),
      user: fc.boolean(),
      props: fc.integer({ min: 0, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(toolArb, { minLength: 1, maxLength: 40 }), async (specs) => {
        const tools: FirmwareTool[] = specs.map((s, i) => ({
          name: `self.tool_${i}`,
          description: s.description,
          inputSchema: {
            type: 'object',
            properties: Object.fromEntries(Array.from({ length: s.props }, (_, k) => [`p${k}`, { type: 'integer', minimum: 0, maximum: 100 }])),
            ...(s.props ? { required: Array.from({ length: s.props }, (_, k) => `p${k}`) } : {}),
          },
          ...(s.user ? { annotations: { audience: ['user'] } } : {}),
        }));
        const firmware = new FirmwareMcpServer({ board: 'prop', serverInfo: { name: 'prop', version: '1' }, tools, pages: {} as any });
        const session = sessionOn(firmware);
        await session.start();
        assert.deepEqual(
          session.tools.map((t) => t.name),
          tools.map((t) => t.name),
        );
        // every page the firmware produced respected its byte budget
        const lists = firmware.received.filter((x) => x.method === 'tools/list');
        assert.equal(session.pages, lists.length);
        maxPages = Math.max(maxPages, lists.length);
        for (const r of lists) {
          const page = firmware.toolsList(r.id, r.params.cursor, true);
          const resultBytes = Buffer.byteLength(page) - Buffer.byteLength(`{"jsonrpc":"2.0","id":${r.id},"result":`) - 1;
          assert.ok(resultBytes <= 8000, `page of ${resultBytes} bytes`);
        }
        session.handleClosed();
      }),
      // Random lists are often short; this one (40 long, multi-byte descriptions) always needs
      // at least three pages, so the paging is exercised whatever the seed draws.
      { numRuns: 40, examples: [[Array.from({ length: 40 }, (_, i) => ({ description: '机😀'.repeat(150) + i, user: i % 2 === 0, props: 3 }))]] },
    );
    assert.ok(maxPages >= 3, `the generated lists must really page (max ${maxPages} pages)`);
  });

  it('MAC spellings, client ids and topic templates round-trip', () => {
    fc.assert(
      fc.property(macArb, fc.uuid(), (mac, uuid) => {
        assert.equal(normalizeDeviceId(mac.toUpperCase()), mac);
        assert.equal(normalizeDeviceId(macUnderscore(mac)), mac);
        assert.equal(deviceIdFromMqttClientId(`GID_test@@@${macUnderscore(mac)}@@@${uuid}`), mac);
        assert.equal(deviceIdFromMqttClientId(`GID_test@@@${macUnderscore(mac)}`), mac);
        const m = topicMatcher('xiaozhi/{mac_}/up');
        assert.equal(m.subscription, 'xiaozhi/+/up');
        assert.equal(m.match(deviceTopicFor('xiaozhi/{mac_}/up', mac)), mac);
        assert.equal(m.match('other/topic'), undefined);
        assert.equal(topicMatcher('device-server').match('device-server'), null);
      }),
    );
    assert.equal(deviceIdFromMqttClientId('not-a-device'), undefined);
  });

  it('request ids are integers below 2^31 and wrap instead of overflowing', () => {
    const ids = new IdAllocator();
    (ids as any).next = 0x7ffffffe;
    assert.deepEqual([ids.take(), ids.take(), ids.take()], [0x7ffffffe, 0x7fffffff, 1]);
  });
});

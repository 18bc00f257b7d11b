// The device simulator must be the firmware, or every other esp32 test proves nothing: its replies
// are checked byte for byte against the recorded transcripts and the fixtures' page splits.
import assert from 'node:assert/strict';
import { FirmwareMcpServer, lichuangDev, mqttTranscript, ottoRobot, wsTranscript } from '../peers/xiaozhi-device';

function replies(fw: FirmwareMcpServer, payload: unknown): Promise<string[]> {
  const out: string[] = [];
  fw.handle(payload, (t) => out.push(t));
  return new Promise((r) => setTimeout(() => r(out), 20));
}

describe('xiaozhi device simulator (firmware fidelity)', () => {
  for (const [name, load] of [
    ['otto-robot', ottoRobot],
    ['lichuang-dev', lichuangDev],
  ] as const) {
    for (const key of ['withUserTools=false', 'withUserTools=true'] as const) {
      it(`${name}: pages split exactly as the fixture records (${key})`, () => {
        const fixture = load();
        const fw = new FirmwareMcpServer(fixture);
        for (const page of fixture.pages[key]) {
          const text = fw.toolsList(1, page.cursor, key.endsWith('true'));
          const result = JSON.parse(text).result;
          assert.deepEqual(
            result.tools.map((t: any) => t.name),
            page.tool_names,
          );
          const resultBytes = Buffer.byteLength(text) - Buffer.byteLength('{"jsonrpc":"2.0","id":1,"result":') - 1;
          assert.equal(resultBytes, page.result_bytes);
          if (page.nextCursor === null) assert.equal('nextCursor' in result, false, 'last page has no nextCursor key');
          else assert.equal(result.nextCursor, page.nextCursor);
        }
      });
    }
  }

  it('reproduces every device frame of the WebSocket transcript byte for byte', async () => {
    const t = wsTranscript();
    const fw = new FirmwareMcpServer(ottoRobot());
    let checked = 0;
    for (let i = 0; i < t.frames.length; i++) {
      const f = t.frames[i];
      if (f.dir !== 'server->device' || f.json?.type !== 'mcp') continue;
      const expected = t.frames
        .slice(i + 1)
        .find((g) => g.dir === 'device->server' && g.json?.type === 'mcp' && g.json.payload.id === f.json.payload.id && !g.synthetic);
      const out = await replies(fw, f.json.payload);
      if (!expected) {
        assert.deepEqual(out, [], `no reply expected to seq ${f.seq}`);
        continue;
      }
      assert.equal(`{"session_id":"${t.session_id}","type":"mcp","payload":${out[0]}}`, expected.raw, `reply to seq ${f.seq}`);
      checked++;
    }
    assert.equal(checked, 9);
  });

  it('reproduces the MQTT transcript replies (session_id "" before hello)', async () => {
    const t = mqttTranscript();
    const fw = new FirmwareMcpServer(ottoRobot());
    let checked = 0;
    for (let i = 0; i < t.frames.length; i++) {
      const f = t.frames[i];
      if (f.dir !== 'server->device' || f.json?.type !== 'mcp' || f.json.payload.id === undefined) continue;
      const expected = t.frames.slice(i + 1).find((g) => g.dir === 'device->server' && g.json?.payload?.id === f.json.payload.id)!;
      const out = await replies(fw, f.json.payload);
      assert.equal(`{"session_id":"${expected.json.session_id}","type":"mcp","payload":${out[0]}}`, expected.raw);
      checked++;
    }
    assert.equal(checked, 4);
  });

  it('drops string ids, params:null, notifications and bad jsonrpc silently; exact error strings otherwise', async () => {
    const fw = new FirmwareMcpServer(ottoRobot());
    assert.deepEqual(await replies(fw, { jsonrpc: '2.0', id: 'a', method: 'tools/list' }), []);
    assert.deepEqual(await replies(fw, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: null }), []);
    assert.deepEqual(await replies(fw, { jsonrpc: '2.0', method: 'notifications/initialized' }), []);
    assert.deepEqual(await replies(fw, { jsonrpc: '1.0', id: 1, method: 'tools/list' }), []);
    const err = async (payload: object) => JSON.parse((await replies(fw, payload))[0]).error;
    assert.deepEqual(await err({ jsonrpc: '2.0', id: 2, method: 'tools/call' }), { message: 'Missing params' });
    assert.deepEqual(await err({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} }), { message: 'Missing name' });
    assert.deepEqual(await err({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', arguments: 1 } }), { message: 'Invalid arguments' });
    assert.deepEqual(await err({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'self.audio_speaker.set_volume', arguments: {} } }), {
      message: 'Missing valid argument: volume',
    });
    assert.deepEqual(await err({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'self.audio_speaker.set_volume', arguments: { volume: -1 } } }), {
      message: 'Value is below minimum allowed: 0',
    });
    assert.deepEqual(await err({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'nope' } }), {
      message: 'Failed to add tool  because of payload size limit',
    });
    assert.deepEqual(await err({ jsonrpc: '2.0', id: 2, method: 'ping' }), { message: 'Method not implemented: ping' });
    // integers are truncated like cJSON valueint
    const ok = JSON.parse(
      (await replies(fw, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'self.audio_speaker.set_volume', arguments: { volume: 50.7 } } }))[0],
    );
    assert.deepEqual(ok.result, { content: [{ type: 'text', text: 'true' }], isError: false });
    assert.equal(fw.state.volume, 50);
  });
});

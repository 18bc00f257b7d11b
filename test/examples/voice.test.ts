// examples/talk-to-your-home.json and examples/live-voice.json end to end in a real Node-RED: the
// simulated xiaozhi device speaks (real Opus), hears the answer (its speaker judges it), and the
// Home Assistant stand-in sees the tool call. Both flows need the esp32-listener config node
// (SPEC §7), which is built on another branch: until it is merged the flows wait in
// test/examples/voice-flows/ (examples/ must only hold flows whose nodes exist: `npm start` deploys
// them all) and these specs are skipped. Integration: move them to examples/.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { reply, ANSWER_PCM } from '../peers/fake-gemini';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice } from '../peers/xiaozhi-device';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from './node-red-process';
import { startServicePeers, type ServicePeers } from './service-peers';

const hasListener = existsSync(join(__dirname, '../../nodes/esp32-listener.ts')) && existsSync(join(__dirname, '../../examples/live-voice.json'));
const ANSWER_MS = (ANSWER_PCM.length / 2 / 24000) * 1000;

async function dialIn(nr: NodeRedProcess, path: string, deviceId: string): Promise<{ device: XiaozhiWsDevice; voice: DeviceVoice }> {
  const url = `${nr.url.replace('http', 'ws')}${path}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const device = await XiaozhiWsDevice.connect({ url, deviceId, fixture: lichuangDev() });
      return { device, voice: await DeviceVoice.overWebSocket(device) };
    } catch (err) {
      if (attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

(hasListener ? describe : describe.skip)('examples: voice', function () {
  this.timeout(120_000);
  let peers: ServicePeers;
  let nr: NodeRedProcess;
  const devices: XiaozhiWsDevice[] = [];
  before(async () => {
    peers = await startServicePeers();
    nr = await startNodeRed({ env: peers.env });
  });
  after(async () => {
    for (const d of devices) d.close();
    await nr?.stop();
    await peers?.close();
  });

  it('talk-to-your-home: the utterance goes to Gemini as WAV, Home Assistant acts, the device hears the answer', async () => {
    const flow = readExample('talk-to-your-home');
    await nr.deploy(flow);
    await assertCleanDeploy(nr, flow);
    peers.gemini.script(reply.call('HassTurnOn', { name: 'Kitchen Light' }), reply.text('The kitchen light is on.'), reply.audio(ANSWER_PCM));
    const { device, voice } = await dialIn(nr, '/xiaozhi/voice/', 'aa:00:00:00:00:01');
    devices.push(device);
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'manual', realTime: true });
    await stopped;
    const first = peers.gemini.requests[0].body.contents[0].parts[0];
    assert.equal(first.inlineData.mimeType, 'audio/wav');
    assert.ok(peers.ha.requests.some((r) => r.rpcMethod === 'tools/call' && (r.json as any).params.name === 'HassTurnOn'));
    assert.deepEqual(voice.speaker.report.sentences, ['The kitchen light is on.']);
    assert.ok(Math.abs(voice.speaker.report.playedMs - ANSWER_MS) <= 60);
    const played = await nr.debug.next('tth-debug-played');
    assert.equal(played.value.aborted, false);
    assert.deepEqual(nr.debug.errors(), []);
  });

  it('live-voice: the device talks to Gemini Live, the tool call and transcripts show up as messages', async () => {
    const flow = readExample('live-voice');
    await nr.deploy(flow);
    await assertCleanDeploy(nr, flow);
    peers.gemini.live.script({ transcript: 'Turn on the kitchen light, please.', calls: [{ name: 'HassTurnOn', args: { name: 'Kitchen Light' } }], text: 'The kitchen light is on.' });
    const { device, voice } = await dialIn(nr, '/xiaozhi/live/', 'aa:00:00:00:00:02');
    devices.push(device);
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'auto', realTime: true, trailingSilenceMs: 900 });
    await stopped;
    const call = await nr.debug.next('lv-debug-events', (m) => m.value?.topic === 'tool_call');
    assert.equal(call.value.payload.name, 'HassTurnOn');
    await nr.debug.next('lv-debug-events', (m) => m.value?.topic === 'transcript');
    assert.ok(Math.abs(voice.speaker.report.playedMs - ANSWER_MS) <= 60);
    assert.deepEqual(peers.gemini.live.sessions[0].violations, []);
    assert.deepEqual(nr.debug.errors(), []);
  });
});

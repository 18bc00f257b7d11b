// The pipeline of SPEC §9 in the real Node-RED runtime: utterance → gemini-agent (Home Assistant
// tools) → esp32-say, with the device simulator speaking real Opus over WebSocket and hearing the
// answer. Until the esp32-listener exists, two stand-ins built on the engine's VoiceHub play its
// part: a config node exposing `voice` (the seam esp32-say uses) and an in-node emitting utterances
// the way esp32-mcp-in is to emit them ({topic:"utterance", payload:<WAV>, device, wakeWord}).
import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import { VoiceHub } from '../../src/voice/voice-hub';
import { reply, ANSWER_PCM } from '../peers/fake-gemini';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice } from '../peers/xiaozhi-device';
import { startHubServers } from '../voice/voice-harness';
import { helper, haServer, agentFlow, useAgentPeers, ALL_NODES, API_KEY } from '../gemini/harness';

const sayNode = require('../../nodes/esp32-say');

const ANSWER_MS = (ANSWER_PCM.length / 2 / 24000) * 1000;
const utterances = new EventEmitter();
let hub: VoiceHub;

function standIns(RED: any) {
  RED.nodes.registerType('test-voice-listener', function (this: any, config: any) {
    RED.nodes.createNode(this, config);
    this.voice = hub;
  });
  RED.nodes.registerType('test-utterance-in', function (this: any, config: any) {
    RED.nodes.createNode(this, config);
    const emit = (msg: unknown) => this.send(msg);
    utterances.on('utterance', emit);
    this.on('close', () => utterances.off('utterance', emit));
  });
}

describe('voice pipeline flow: utterance → gemini-agent → esp32-say', () => {
  const peers = useAgentPeers();

  it('the device asks, Gemini hears the WAV and turns on the light through Home Assistant, the device hears the answer', async () => {
    hub = new VoiceHub({
      mode: 'flow',
      onUtterance: (device, u) =>
        utterances.emit('utterance', {
          topic: 'utterance',
          payload: u.wav,
          device: { id: device.id, transport: device.transport },
          ...(u.wakeWord ? { wakeWord: u.wakeWord } : {}),
        }),
    });
    const servers = await startHubServers(hub);
    const ha = haServer(peers.ha);
    const { flow, credentials } = agentFlow({
      fake: peers.fake,
      servers: [ha],
      agent: { systemInstruction: 'Answer what the person says, in one short sentence.' },
      extra: [
        { id: 'listener', type: 'test-voice-listener' },
        { id: 'in', type: 'test-utterance-in', wires: [['agent']] },
        {
          id: 'say',
          type: 'esp32-say',
          listener: 'listener',
          deviceId: '',
          tts: { provider: 'gemini', model: '', voice: 'Kore' },
          baseUrl: peers.fake.url,
          wires: [['played']],
        },
        { id: 'played', type: 'helper' },
      ],
    });
    // The agent's answer goes on to esp32-say, as in the example flow.
    flow.find((n) => n.id === 'agent').wires[0].push('say');
    for (const n of flow) if (n.z === 'tab' && n.x === undefined) Object.assign(n, { x: 100, y: 100 });
    await helper.load([...ALL_NODES, standIns, sayNode], flow, { ...credentials, say: { apiKey: API_KEY } });
    peers.fake.script(reply.call('HassTurnOn', { name: 'Kitchen Light' }), reply.text('The kitchen light is on.'), reply.audio(ANSWER_PCM));
    const device = await XiaozhiWsDevice.connect({ url: servers.wsUrl, deviceId: 'ab:cd:00:00:00:09', fixture: lichuangDev() });
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      const played = new Promise<any>((r) => helper.getNode('played').once('input', r));
      const stopped = voice.speaker.nextStop();
      await voice.say({ mode: 'manual', realTime: false, wakeWord: '你好小智' });
      await stopped;
      const done = await played;
      assert.deepEqual(done.payload, { durationMs: Math.ceil(ANSWER_MS / 60) * 60, aborted: false });
      assert.equal(done.wakeWord, '你好小智');
      assert.equal(peers.fake.requests[0].body.contents[0].parts[0].inlineData.mimeType, 'audio/wav');
      assert.ok(peers.ha.requests.some((r) => r.rpcMethod === 'tools/call' && (r.json as any).params.name === 'HassTurnOn'));
      assert.equal(peers.fake.requests[2].model, 'gemini-3.8-flash-tts');
      assert.deepEqual(voice.speaker.report.sentences, ['The kitchen light is on.']);
      assert.ok(Math.abs(voice.speaker.report.playedMs - ANSWER_MS) <= 60);
      assert.equal(voice.speaker.report.outsideSpeaking + voice.speaker.report.overflows, 0);
      assert.ok(!JSON.stringify(done).includes(API_KEY));
    } finally {
      device.close();
      await servers.close();
    }
  });
});

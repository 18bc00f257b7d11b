// The VoiceHub wired the way the esp32-listener is to wire it (see startHubServers): the simulated
// device says something over WebSocket and over MQTT + UDP and hears an answer made by "the flow"
// (pipeline mode: utterance out, esp32-say-style speak back in) and by the Live fake (live mode),
// with the Home Assistant stand-in's tool call visible as an event.
import { strict as assert } from 'node:assert';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { decodeWav, pcmFromBytes } from '../../src/audio';
import { createGeminiClient } from '../../src/gemini/client';
import { LiveSession } from '../../src/gemini/live-session';
import { buildCatalog } from '../../src/gemini/tool-catalog';
import { mcpExecutor } from '../../src/gemini/auto-executor';
import { McpSession } from '../../src/mcp/session';
import { VoiceHub, type VoiceDevice } from '../../src/voice/voice-hub';
import type { LiveBridgeEvent } from '../../src/voice/live-bridge';
import type { Utterance } from '../../src/voice/conversation';
import { startFakeGemini, ANSWER_PCM } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, startHomeAssistant } from '../peers/home-assistant';
import { lichuangDev, XiaozhiWsDevice, XiaozhiMqttDevice, DeviceVoice } from '../peers/xiaozhi-device';
import { startHubServers } from './voice-harness';

const KEY = 'AIzaSy-hub-test-key-DO-NOT-LEAK-19';
const ANSWER_MS = (ANSWER_PCM.length / 2 / 24000) * 1000;

/**
 * The longest stall of this process from now until the returned function is called. Server and
 * device share the process here, so a stall (a busy 2-core machine) delays the device's receipt as
 * much as the server's sending, and a frame looks late though no device would have heard a gap.
 */
function watchStalls(): () => number {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return () => {
    h.disable();
    return h.max / 1e6;
  };
}

/**
 * The pacer keeps up to 5 frames of 60 ms at the device, but sends an answer's first frame alone (as
 * soon as it is encoded, for latency): right then the device holds one frame, and a stall of the
 * process longer than that one frame can empty it. On a quiet machine the longest stall measured
 * 13-18 ms, so the check holds there; under a loaded npm test it reached 140 ms.
 */
const STALL_THAT_EMPTIES_MS = 60;

function heardWholeAnswer(voice: DeviceVoice, stalledMs: number): void {
  const r = voice.speaker.report;
  assert.equal(r.sampleRate, 24000);
  assert.equal(r.ttsStarts, 1);
  assert.equal(r.ttsStops, 1);
  assert.equal(r.outsideSpeaking + r.overflows + r.decodeErrors + r.oversized, 0);
  // A gap the device hears is the product's fault, unless this process itself stood still that long.
  if (stalledMs < STALL_THAT_EMPTIES_MS) assert.equal(r.underruns, 0, `underruns without a stall of the process (longest ${stalledMs.toFixed(0)} ms)`);
  assert.ok(Math.abs(r.playedMs - ANSWER_MS) <= 60, `played ${r.playedMs} of ${ANSWER_MS} ms`);
}

describe('voice hub: pipeline mode ("flow")', () => {
  for (const transport of ['websocket', 'mqtt'] as const) {
    it(`${transport}: the utterance reaches the flow as a 16 kHz WAV and the flow's answer plays on the device`, async () => {
      const heard: Array<{ device: VoiceDevice; utterance: Utterance }> = [];
      const hub: VoiceHub = new VoiceHub({
        mode: 'flow',
        onUtterance: (device, utterance) => {
          heard.push({ device, utterance });
          // What esp32-say does with the flow's answer.
          void hub.conversation(device.id)!.speak({ samples: pcmFromBytes(ANSWER_PCM), sampleRate: 24000 }, { display: 'Turn on the kitchen light' });
        },
      });
      const servers = await startHubServers(hub);
      const id = transport === 'websocket' ? 'ab:cd:ef:00:00:01' : 'ab:cd:ef:00:00:02';
      let cleanup: () => Promise<void> | void;
      let voice: DeviceVoice;
      if (transport === 'websocket') {
        const device = await XiaozhiWsDevice.connect({ url: servers.wsUrl, deviceId: id, protocolVersion: '3', fixture: lichuangDev() });
        voice = await DeviceVoice.overWebSocket(device);
        cleanup = () => device.close();
      } else {
        const device = await XiaozhiMqttDevice.connect({ brokerUrl: servers.mqttUrl, deviceId: id, mode: 'subscribing', fixture: lichuangDev() });
        voice = await DeviceVoice.overMqtt(device);
        cleanup = () => device.end();
      }
      try {
        const stopped = voice.speaker.nextStop();
        const stalls = watchStalls();
        await voice.say({ mode: 'manual', realTime: false });
        await stopped;
        const stalledMs = stalls();
        assert.equal(heard.length, 1);
        assert.equal(heard[0].device.id, id);
        assert.equal(decodeWav(heard[0].utterance.wav).sampleRate, 16000);
        assert.deepEqual(voice.speaker.report.stt, ['Turn on the kitchen light']);
        heardWholeAnswer(voice, stalledMs);
      } finally {
        await cleanup();
        await servers.close();
      }
    });
  }
});

describe('voice hub: live mode', () => {
  for (const generation of HA_GENERATIONS)
    it(`mqtt + udp: the device talks to the Live fake, the Home Assistant ${generation} call is emitted, the answer plays`, async () => {
      const turnOn = haToolName(generation, 'HassTurnOn');
      const fake = await startFakeGemini({ apiKey: KEY });
      const ha = await startHomeAssistant({ generation });
      const provider = new McpSession({
        id: 'ha',
        name: 'Home Assistant',
        transport: 'http',
        url: ha.url,
        token: ha.token,
        timeoutMs: 10000,
        protocolVersion: 'auto',
      });
      const client = createGeminiClient({ apiKey: KEY, baseUrl: fake.url });
      const events: LiveBridgeEvent[] = [];
      const hub = new VoiceHub({
        mode: 'live',
        openLive: async (_device, liveEvents) =>
          LiveSession.open({ client, catalog: await buildCatalog([{ provider }]), executor: mcpExecutor(), secrets: [KEY] }, liveEvents),
        onLiveEvent: (_device, e) => events.push(e),
      });
      const servers = await startHubServers(hub);
      const device = await XiaozhiMqttDevice.connect({
        brokerUrl: servers.mqttUrl,
        deviceId: 'ab:cd:ef:00:00:03',
        mode: 'subscribing',
        fixture: lichuangDev(),
      });
      try {
        fake.live.script({
          transcript: 'Turn on the kitchen light, please.',
          calls: [{ name: turnOn, args: { name: 'Kitchen Light' } }],
          text: 'The kitchen light is on.',
        });
        const voice = await DeviceVoice.overMqtt(device);
        const stopped = voice.speaker.nextStop();
        const stalls = watchStalls();
        await voice.say({ mode: 'auto', realTime: false, trailingSilenceMs: 900 });
        await stopped;
        const stalledMs = stalls();
        assert.deepEqual(fake.live.sessions[0].violations, []);
        const call = events.find((e) => e.topic === 'tool_call')?.payload as any;
        assert.equal(call?.name, turnOn);
        assert.equal(call?.isError, false);
        assert.ok(ha.requests.some((r) => r.rpcMethod === 'tools/call'));
        assert.ok(events.some((e) => e.topic === 'transcript' && (e.payload as any).role === 'user'));
        heardWholeAnswer(voice, stalledMs);
      } finally {
        await device.end();
        await servers.close();
        await provider.close();
        await ha.close();
        await fake.close();
      }
    });
});

// The three voice examples (esp32-voice-talk-to-your-home: voice "flow"; esp32-voice-live: "live";
// esp32-voice-home-assistant-assist: "assist") end to end in a real Node-RED: the simulated xiaozhi
// device speaks (real Opus), hears the answer (its speaker judges it, and counts any audio that
// arrives before `tts start`, which a real device drops), and the Home Assistant stand-in sees the
// tool call. Each flow runs as shipped (WebSocket on Node-RED's own port) and with its listener
// switched to the MQTT gateway, where the device asks for the UDP audio channel in its hello as the
// firmware does and audio and `tts start` travel different paths.
import assert from 'node:assert/strict';
import { reply, ANSWER_PCM } from '../peers/fake-gemini';
import { lichuangDev, XiaozhiMqttDevice, XiaozhiWsDevice, DeviceVoice } from '../peers/xiaozhi-device';
import { freePort } from '../peers/free-port';
import { readExample, startNodeRed, assertCleanDeploy, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { startServicePeers, type ServicePeers } from './service-peers';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import { waitFor } from '../helpers/wait';

const ANSWER_MS = (ANSWER_PCM.length / 2 / 24000) * 1000;
type Transport = 'websocket' | 'mqtt-gateway';

/** What a user gives the tab's DEVICE_TOKEN variable (a credential), as the example's comment asks. */
const DEVICE_TOKEN = 'voice-example-device-token';

/**
 * The example after its set-up (DEVICE_TOKEN set on its tab), as shipped or with its listener on
 * an MQTT gateway at `port` (voice over UDP).
 */
function exampleOn(name: string, transport: Transport, port: number): FlowNode[] {
  const flow = readExample(name).map((n) => (n.type === 'tab' ? { ...n, credentials: { DEVICE_TOKEN } } : n));
  if (transport === 'websocket') return flow;
  return flow.map((n) => (n.type === 'esp32-listener' ? { ...n, transport: 'mqtt-gateway', port: String(port), bind: '127.0.0.1' } : n));
}

/** The device dials in (retried briefly: the listener opens once the flow has started) and gets its voice. */
async function dialIn(nr: NodeRedProcess, transport: Transport, where: string | number, deviceId: string, closers: Array<() => unknown>): Promise<DeviceVoice> {
  for (let attempt = 0; ; attempt++) {
    const before = closers.length;
    try {
      if (transport === 'websocket') {
        const device = await XiaozhiWsDevice.connect({ url: `${nr.url.replace('http', 'ws')}${where}`, deviceId, token: DEVICE_TOKEN, fixture: lichuangDev() });
        closers.push(() => device.close());
        return await DeviceVoice.overWebSocket(device);
      }
      const device = await XiaozhiMqttDevice.connect({
        brokerUrl: `mqtt://127.0.0.1:${where}`,
        deviceId,
        mode: 'stock',
        password: DEVICE_TOKEN,
        fixture: lichuangDev(),
      });
      closers.push(() => device.end());
      const voice = await DeviceVoice.overMqtt(device);
      closers.push(() => voice.udp.close());
      return voice;
    } catch (err) {
      // A failed attempt must not keep holding the device id (the listener would refuse the next).
      for (const c of closers.splice(before)) await c();
      if (attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

// Once per Home Assistant generation for the examples whose model calls Home Assistant's tools; the
// Assist example talks to HA's WebSocket API, which did not change, so it runs on the first only.
for (const generation of HA_GENERATIONS) describeVoice(generation);

function describeVoice(generation: HaGeneration) {
  describe(`examples: voice (Home Assistant ${generation})`, function () {
    this.timeout(120_000);
    const turnOn = haToolName(generation, 'HassTurnOn');
    let peers: ServicePeers;
    let nr: NodeRedProcess;
    const closers: Array<() => unknown> = [];
    before(async () => {
      peers = await startServicePeers(generation);
      nr = await startNodeRed({ env: peers.env });
    });
    afterEach(async () => {
      for (const c of closers.splice(0)) await c();
      nr.debug.clear();
    });
    after(async () => {
      await nr?.stop();
      await peers?.close();
    });

    for (const transport of ['websocket', 'mqtt-gateway'] as const) {
      if (generation === HA_GENERATIONS[0])
        it(`esp32-voice-home-assistant-assist (${transport}): the device talks through the Assist pipeline of the Home Assistant stand-in, no Gemini involved`, async () => {
          const port = await freePort();
          const flow = exampleOn('esp32-voice-home-assistant-assist', transport, port);
          await nr.deploy(flow);
          await assertCleanDeploy(nr, flow);
          peers.ha.assist!.script({ transcript: 'Turn on the kitchen light', answer: 'The kitchen light is on.' });
          const geminiBefore = peers.gemini.requests.length;
          const runsBefore = peers.ha.assist!.runs.length;
          const voice = await dialIn(nr, transport, transport === 'websocket' ? '/xiaozhi/assist/' : port, 'aa:00:00:00:00:03', closers);
          const stopped = voice.speaker.nextStop();
          await voice.say({ mode: 'manual', realTime: true });
          await stopped;
          assert.equal(peers.ha.assist!.runs.length, runsBefore + 1, 'one pipeline run');
          assert.deepEqual(voice.speaker.report.stt, ['Turn on the kitchen light']);
          assert.deepEqual(voice.speaker.report.sentences, ['The kitchen light is on.']);
          assert.ok(Math.abs(voice.speaker.report.playedMs - 1666) <= 167, `played ${voice.speaker.report.playedMs} ms`);
          // No audio reached the device before its `tts start` (it would drop it), as for the other two voice modes.
          assert.equal(voice.speaker.report.outsideSpeaking + voice.speaker.report.overflows, 0);
          const user = await nr.debug.next('ast-debug-turns', (m) => m.value?.role === 'user');
          const assistant = await nr.debug.next('ast-debug-turns', (m) => m.value?.role === 'assistant');
          assert.equal(user.value.payload, 'Turn on the kitchen light');
          assert.equal(assistant.value.payload, 'The kitchen light is on.');
          assert.equal(peers.gemini.requests.length, geminiBefore, 'no cloud model was asked');
        });

      it(`esp32-voice-talk-to-your-home (${transport}): the utterance goes to Gemini as WAV, Home Assistant acts, the device hears the answer`, async () => {
        const port = await freePort();
        const flow = exampleOn('esp32-voice-talk-to-your-home', transport, port);
        await nr.deploy(flow);
        await assertCleanDeploy(nr, flow);
        peers.gemini.script(reply.call(turnOn, { name: 'Kitchen Light' }), reply.text('The kitchen light is on.'), reply.audio(ANSWER_PCM));
        const firstRequest = peers.gemini.requests.length;
        const haCalls = () => peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call' && (r.json as any).params.name === turnOn).length;
        const callsBefore = haCalls();
        const voice = await dialIn(nr, transport, transport === 'websocket' ? '/xiaozhi/voice/' : port, 'aa:00:00:00:00:01', closers);
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'manual', realTime: true });
        await stopped;
        const first = peers.gemini.requests[firstRequest].body.contents[0].parts[0];
        assert.equal(first.inlineData.mimeType, 'audio/wav');
        assert.equal(haCalls(), callsBefore + 1, 'Home Assistant was called once');
        const answer = await nr.debug.next('tth-debug-answer');
        assert.equal(answer.value, 'The kitchen light is on.');
        assert.deepEqual(voice.speaker.report.sentences, ['The kitchen light is on.']);
        assert.ok(Math.abs(voice.speaker.report.playedMs - ANSWER_MS) <= 60, `played ${voice.speaker.report.playedMs} of ${ANSWER_MS} ms`);
        assert.equal(voice.speaker.report.outsideSpeaking + voice.speaker.report.overflows, 0);
        const played = await nr.debug.next('tth-debug-played');
        assert.equal(played.value.aborted, false);
        assert.deepEqual(nr.debug.errors(), []);
      });

      it(`esp32-voice-live (${transport}): the device talks to Gemini Live, the tool call and transcripts show up as messages`, async () => {
        const port = await freePort();
        const flow = exampleOn('esp32-voice-live', transport, port);
        await nr.deploy(flow);
        await assertCleanDeploy(nr, flow);
        peers.gemini.live.script({
          transcript: 'Turn on the kitchen light, please.',
          calls: [{ name: turnOn, args: { name: 'Kitchen Light' } }],
          text: 'The kitchen light is on.',
        });
        const firstSession = peers.gemini.live.sessions.length;
        const voice = await dialIn(nr, transport, transport === 'websocket' ? '/xiaozhi/live/' : port, 'aa:00:00:00:00:02', closers);
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'auto', realTime: true, trailingSilenceMs: 900 });
        await stopped;
        const call = await nr.debug.next('lv-debug-events', (m) => m.value?.topic === 'tool_call');
        assert.equal(call.value.payload.name, turnOn);
        assert.equal(call.value.payload.server, 'Home Assistant (Voice: Gemini Live)');
        assert.equal(call.value.payload.isError, false);
        assert.equal(call.value.device.id, 'aa:00:00:00:00:02');
        const heard = await nr.debug.next('lv-debug-events', (m) => m.value?.topic === 'transcript' && m.value.payload.role === 'user');
        assert.equal(heard.value.payload.text, 'Turn on the kitchen light, please.');
        assert.ok(Math.abs(voice.speaker.report.playedMs - ANSWER_MS) <= 60, `played ${voice.speaker.report.playedMs} of ${ANSWER_MS} ms`);
        assert.equal(voice.speaker.report.outsideSpeaking + voice.speaker.report.overflows, 0);
        assert.deepEqual(peers.gemini.live.sessions[firstSession].violations, []);
        assert.deepEqual(nr.debug.errors(), []);
      });
    }

    it('esp32-voice-live: across goAway the conversation is resumed; when Gemini no longer takes the handle it starts over and the status says so', async () => {
      const flow = exampleOn('esp32-voice-live', 'websocket', 0);
      await nr.deploy(flow);
      await assertCleanDeploy(nr, flow);
      const live = peers.gemini.live;
      live.script({ transcript: 'my name is Ada', text: 'one' }, { transcript: 'what is my name?', text: 'two' }, { transcript: 'and now?', text: 'three' });
      const first = live.sessions.length;
      const voice = await dialIn(nr, 'websocket', '/xiaozhi/live/', 'aa:00:00:00:00:07', closers);
      const turn = async () => {
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'auto', realTime: true, trailingSilenceMs: 900 });
        await stopped;
      };
      const nextConnectionAfter = async (index: number) => {
        await waitFor(() => live.sessions[index]?.handles.length >= 2 || undefined, 'a handle after the turn');
        live.goAway(100);
        await waitFor(() => live.sessions[index].closed, 'the connection to close');
      };
      await turn();
      await nextConnectionAfter(first);
      await turn();
      assert.equal(live.sessions[first + 1].resumedFrom, live.sessions[first].handles.at(-1), 'the second connection resumed the first');
      assert.deepEqual(live.sessions[first + 1].conversation.turns, ['my name is Ada', 'what is my name?']);
      // The handles expire (or the session is too old): the next turn starts over, and says so.
      await nextConnectionAfter(first + 1);
      live.forgetHandles();
      await turn();
      assert.equal(voice.speaker.report.ttsStops, 3, 'every turn was answered');
      const listenerUsers = flow.filter((n) => n.type === 'esp32-mcp-in').map((n) => n.id);
      const status = await waitFor(
        () => listenerUsers.map((id) => nr.debug.statuses.get(id)).find((s) => /started over/.test(s?.text ?? '')),
        'the listener status to say the conversation started over',
      );
      assert.equal(status.text, 'Live: aa:00:00:00:00:07 started over (could not resume)');
      assert.equal(status.fill, 'yellow');
      // One warning in the debug sidebar says why, and nothing else went wrong.
      const warnings = nr.debug.errors();
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.equal(warnings[0].id, 'lv-listener');
      assert.match(
        warnings[0].value,
        /^esp32-listener live \(device aa:00:00:00:00:07\): the conversation could not be resumed \(.*code 1007.*\); a new one started$/,
      );
    });
  });
}

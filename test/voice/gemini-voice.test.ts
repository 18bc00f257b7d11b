// Gemini's voice against the fake Gemini through the real @google/genai client: TTS over REST
// (generateContent, responseModalities AUDIO) and the Live API over WebSocket with the xiaozhi
// device simulator speaking into it and Home Assistant's stand-in answering the model's tool call.
import { waitFor } from '../helpers/wait';
import { strict as assert } from 'node:assert';
import { createServer, type AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { createGeminiClient } from '../../src/gemini/client';
import { synthesizeSpeech } from '../../src/gemini/tts';
import { LiveSession } from '../../src/gemini/live-session';
import { buildCatalog } from '../../src/gemini/tool-catalog';
import { mcpExecutor } from '../../src/gemini/auto-executor';
import type { ToolExecutor } from '../../src/gemini/types';
import { McpSession } from '../../src/mcp/session';
import { encodeWav, pcmFromBytes } from '../../src/audio';
import { Conversation } from '../../src/voice/conversation';
import { LiveBridge, type LiveBridgeEvent } from '../../src/voice/live-bridge';
import { startFakeGemini, reply, ANSWER_PCM, type FakeGemini } from '../peers/fake-gemini';
import type { LiveTurn } from '../peers/fake-gemini/live';
import { HA_GENERATIONS, haToolName, startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice } from '../peers/xiaozhi-device';
import { startWsVoiceServer } from './voice-harness';

const KEY = 'AIzaSy-voice-test-key-DO-NOT-LEAK-0042';
const ANSWER_MS = (ANSWER_PCM.length / 2 / 24000) * 1000;

describe('gemini: text to speech', () => {
  let fake: FakeGemini;
  beforeEach(async () => (fake = await startFakeGemini({ apiKey: KEY })));
  afterEach(() => fake.close());

  it('asks for AUDIO with the voice and reads 24 kHz L16 PCM', async () => {
    fake.script(reply.audio(ANSWER_PCM));
    const client = createGeminiClient({ apiKey: KEY, baseUrl: fake.url });
    const audio = await synthesizeSpeech({ client, text: 'The kitchen light is on.', voice: 'Puck', secrets: [KEY] });
    assert.equal(audio.sampleRate, 24000);
    assert.deepEqual(audio.samples, pcmFromBytes(ANSWER_PCM));
    const body = fake.requests[0].body;
    assert.equal(fake.requests[0].model, 'gemini-3.8-flash-tts');
    assert.deepEqual(body.generationConfig.responseModalities, ['AUDIO']);
    assert.equal(body.generationConfig.speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName, 'Puck');
    assert.deepEqual(body.contents, [{ role: 'user', parts: [{ text: 'The kitchen light is on.' }] }]);
  });

  it('reads a WAV answer (3.8 TTS on the Enterprise API) at its own rate', async () => {
    fake.script(reply.audio(encodeWav(new Int16Array(1600).fill(1000), 16000), 'audio/wav'));
    const audio = await synthesizeSpeech({ client: createGeminiClient({ apiKey: KEY, baseUrl: fake.url }), text: 'hi', secrets: [KEY] });
    assert.equal(audio.sampleRate, 16000);
    assert.equal(audio.samples.length, 1600);
  });

  it("reports Gemini's refusal without the key, and an answer without audio as such", async () => {
    const client = createGeminiClient({ apiKey: KEY, baseUrl: fake.url });
    fake.script(reply.error(429, 'RESOURCE_EXHAUSTED', `Quota exceeded for key ${KEY}`));
    await assert.rejects(synthesizeSpeech({ client, text: 'hi', secrets: [KEY] }), (e: Error) => /429/.test(e.message) && !e.message.includes(KEY));
    fake.script(reply.text('I cannot speak'));
    await assert.rejects(synthesizeSpeech({ client, text: 'hi', secrets: [KEY] }), /no audio/);
    await assert.rejects(synthesizeSpeech({ client, text: '  ', secrets: [KEY] }), /empty/);
  });

  it('speaks a text answer to the simulated device through Gemini TTS', async () => {
    fake.script(reply.audio(ANSWER_PCM));
    const client = createGeminiClient({ apiKey: KEY, baseUrl: fake.url });
    let conversation!: Conversation;
    const server = await startWsVoiceServer(
      (base) => (conversation = new Conversation({ ...base, tts: (text, signal) => synthesizeSpeech({ client, text, signal, secrets: [KEY] }) })),
    );
    const device = await XiaozhiWsDevice.connect({ url: server.url, deviceId: 'aa:bb:cc:00:00:01', fixture: lichuangDev() });
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      const result = await conversation.speak('The kitchen light is on.');
      assert.equal(result.aborted, false);
      assert.deepEqual(voice.speaker.report.sentences, ['The kitchen light is on.']);
      assert.ok(Math.abs(voice.speaker.report.playedMs - ANSWER_MS) <= 60);
      assert.equal(voice.speaker.report.outsideSpeaking, 0);
    } finally {
      device.close();
      await server.close();
    }
  });
});

for (const generation of HA_GENERATIONS) {
  describe(`gemini: Live with a xiaozhi device (Home Assistant ${generation})`, () => {
    const turnOn = haToolName(generation, 'HassTurnOn');
    let fake: FakeGemini;
    let ha: HomeAssistantStandIn;
    let provider: McpSession;
    beforeEach(async () => {
      fake = await startFakeGemini({ apiKey: KEY });
      ha = await startHomeAssistant({ generation });
      provider = new McpSession({
        id: 'ha',
        name: 'Home Assistant',
        transport: 'http',
        url: ha.url,
        token: ha.token,
        timeoutMs: 10000,
        protocolVersion: 'auto',
      });
    });
    afterEach(async () => {
      await provider.close();
      await ha.close();
      await fake.close();
    });

    async function liveDevice(options: { model?: string; key?: string; events: LiveBridgeEvent[]; executor?: ToolExecutor }) {
      const client = createGeminiClient({ apiKey: options.key ?? KEY, baseUrl: fake.url });
      const catalog = await buildCatalog([{ provider }]);
      const server = await startWsVoiceServer((base) => {
        const conversation = new Conversation({ ...base, collect: false });
        new LiveBridge({
          conversation,
          open: (events, resumeHandle) =>
            LiveSession.open(
              {
                client,
                model: options.model,
                voice: 'Kore',
                systemInstruction: 'You control a home.',
                catalog,
                executor: options.executor ?? mcpExecutor(),
                secrets: [KEY],
                resumeHandle,
              },
              events,
            ),
          onEvent: (e) => options.events.push(e),
        });
        return conversation;
      });
      const device = await XiaozhiWsDevice.connect({ url: server.url, deviceId: 'aa:bb:cc:00:00:02', protocolVersion: '2', fixture: lichuangDev() });
      const voice = await DeviceVoice.overWebSocket(device);
      return { server, device, voice };
    }

    it('auto mode: speech streams to Live, the model calls Home Assistant, its audio plays on the device', async () => {
      fake.live.script({
        transcript: 'Turn on the kitchen light, please.',
        calls: [{ name: turnOn, args: { name: 'Kitchen Light' } }],
        text: 'The kitchen light is on.',
      });
      const events: LiveBridgeEvent[] = [];
      const { server, device, voice } = await liveDevice({ events });
      try {
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'auto', realTime: false, trailingSilenceMs: 900 });
        await stopped;
        const [session] = fake.live.sessions;
        assert.deepEqual(session.violations, []);
        assert.equal(session.setup.model, 'models/gemini-3.8-live');
        assert.deepEqual(session.setup.generationConfig.responseModalities, ['AUDIO']);
        assert.ok(session.setup.tools[0].functionDeclarations.some((d: any) => d.name === turnOn));
        assert.ok(session.audioBytes >= 16000 * 2 * 2, 'at least 2 s of 16 kHz PCM reached Live');
        assert.equal(session.toolResponses.length, 1);
        assert.match(session.toolResponses[0].id, /^function-call-\d+$/);
        assert.ok(session.toolResponses[0].response.output, 'the HA result went back as output');
        const haCall = ha.requests.find((r) => r.rpcMethod === 'tools/call');
        assert.equal((haCall?.json as any)?.params?.name, turnOn);
        const call = events.find((e) => e.topic === 'tool_call')!.payload as any;
        assert.equal(call.name, turnOn);
        assert.equal(call.server, 'Home Assistant');
        assert.equal(call.isError, false);
        const transcripts = events.filter((e) => e.topic === 'transcript').map((e) => e.payload);
        assert.deepEqual(transcripts, [
          { role: 'user', text: 'Turn on the kitchen light, please.', finished: undefined },
          { role: 'model', text: 'The kitchen light is on.', finished: undefined },
        ]);
        const r = voice.speaker.report;
        assert.equal(r.sampleRate, 24000);
        assert.equal(r.outsideSpeaking, 0);
        assert.equal(r.overflows, 0);
        assert.ok(Math.abs(r.playedMs - ANSWER_MS) <= 60, `played ${r.playedMs} of ${ANSWER_MS} ms`);
      } finally {
        device.close();
        await server.close();
      }
    });

    it('manual mode: listen stop ends the turn at once (audioStreamEnd)', async () => {
      fake.live.script({ text: 'ok' });
      const events: LiveBridgeEvent[] = [];
      const { server, device, voice } = await liveDevice({ events });
      try {
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'manual', realTime: false });
        await stopped;
        const session = fake.live.sessions[0];
        assert.deepEqual(session.messages.at(-1), { realtimeInput: { audioStreamEnd: true } });
        assert.ok(voice.speaker.report.played > 0);
      } finally {
        device.close();
        await server.close();
      }
    });

    it('barge-in: the person talks over the answer, Live interrupts and playback stops', async () => {
      const long = Buffer.alloc(24000 * 2 * 8);
      for (let i = 0; i < long.length / 2; i++) long.writeInt16LE(Math.round(6000 * Math.sin(i / 7)), i * 2);
      fake.live.script({ audio: long }, { text: 'second' });
      const events: LiveBridgeEvent[] = [];
      const { server, device, voice } = await liveDevice({ events });
      try {
        await voice.say({ mode: 'realtime', realTime: false, trailingSilenceMs: 900 });
        await new Promise((r) => voice.speaker.once('first-audio', r));
        // realtime mode: the microphone stays on while the device speaks; a person talks at real time.
        for (const f of voice.mic.frames(new Int16Array(16000).map((_, i) => 8000 * Math.sin(i / 3)))) {
          voice.sendOpusPacket(f);
          await new Promise((r) => setTimeout(r, 60));
        }
        const answer = await waitFor(() => events.find((e) => e.topic === 'answer'), 'the first answer to end');
        assert.equal((answer.payload as any).aborted, true);
        assert.ok((answer.payload as any).durationMs < 8000);
        assert.equal(fake.live.sessions[0].interruptions, 1);
        await waitFor(() => voice.speaker.report.ttsStops >= 1 || undefined, 'tts stop');
      } finally {
        device.close();
        await server.close();
      }
    });

    it('goAway: the session is retired without an error and the next turn opens a new one', async () => {
      fake.live.script({ text: 'one' }, { text: 'two' });
      const events: LiveBridgeEvent[] = [];
      const { server, device, voice } = await liveDevice({ events });
      try {
        let stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'manual', realTime: false });
        await stopped;
        fake.live.goAway(100);
        await waitFor(() => fake.live.sessions[0].closed, 'the first session to close');
        stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'manual', realTime: false });
        await stopped;
        assert.equal(fake.live.sessions.length, 2);
        assert.deepEqual(
          events.filter((e) => e.topic === 'error'),
          [],
        );
        assert.equal(voice.speaker.report.ttsStops, 2);
      } finally {
        device.close();
        await server.close();
      }
    });

    it("non-blocking function calls (gemini-3.8-live's default) are answered in the order they came, across toolCall messages", async () => {
      const turnOff = haToolName(generation, 'HassTurnOff');
      fake.live.script({
        transcript: 'Turn on the kitchen light and turn off the hall light.',
        calls: [
          { name: turnOn, args: { name: 'Kitchen Light' } },
          { name: turnOff, args: { name: 'Hall Light' } },
        ],
        nonBlocking: true,
        text: 'Done.',
      });
      // The first call takes longer than the second: answered as they finish, they would cross.
      const mcp = mcpExecutor();
      const slowFirst: ToolExecutor = async (call, signal) => {
        if (call.name === turnOn) await new Promise((r) => setTimeout(r, 400));
        return mcp(call, signal);
      };
      const events: LiveBridgeEvent[] = [];
      const { server, device, voice } = await liveDevice({ events, executor: slowFirst });
      try {
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'manual', realTime: false });
        await stopped;
        const [session] = fake.live.sessions;
        assert.equal(session.messages.filter((m) => m.toolResponse).length, 2, 'one toolResponse per toolCall message');
        assert.deepEqual(
          session.toolResponses.map((r) => r.name),
          [turnOn, turnOff],
        );
        assert.deepEqual(session.violations, []);
      } finally {
        device.close();
        await server.close();
      }
    });

    /** Scripted turns on one simulated device: `turn()` speaks one and waits for its answer to end. */
    async function onLiveDevice(
      turns: LiveTurn[],
      body: (device: { events: LiveBridgeEvent[]; voice: DeviceVoice; turn(): Promise<void> }) => Promise<void>,
    ): Promise<void> {
      fake.live.script(...turns);
      const events: LiveBridgeEvent[] = [];
      const { server, device, voice } = await liveDevice({ events });
      const turn = async () => {
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'manual', realTime: false });
        await stopped;
      };
      try {
        await body({ events, voice, turn });
      } finally {
        device.close();
        await server.close();
      }
    }
    /** The fake's connection `index` has offered a handle after its first turn. */
    const handleAfterTurn = (index: number) => waitFor(() => fake.live.sessions[index].handles.length >= 2 || undefined, 'a handle after the turn');
    const goAwayAndClose = async (index: number) => {
      fake.live.goAway(100);
      await waitFor(() => fake.live.sessions[index].closed, 'the connection to close');
    };

    it('goAway: the next turn resumes the conversation with the latest handle (and a sliding context window)', () =>
      onLiveDevice(
        [
          { transcript: 'my name is Ada', text: 'one' },
          { transcript: 'what is my name?', text: 'two' },
        ],
        async ({ events, turn }) => {
          await turn();
          const [first] = fake.live.sessions;
          assert.deepEqual(first.setup.sessionResumption, {}, 'resumption asked for from the first connection on');
          assert.deepEqual(first.setup.contextWindowCompression, { slidingWindow: {} });
          await handleAfterTurn(0);
          await goAwayAndClose(0);
          await turn();
          const second = fake.live.sessions[1];
          assert.equal(second.setup.sessionResumption.handle, first.handles.at(-1));
          assert.equal(second.resumedFrom, first.handles.at(-1));
          assert.equal(second.conversation.id, first.conversation.id);
          assert.deepEqual(second.conversation.turns, ['my name is Ada', 'what is my name?'], 'one conversation over two connections');
          assert.deepEqual(
            events.filter((e) => e.topic === 'error' || e.topic === 'resumption_failed'),
            [],
          );
          assert.deepEqual(
            events.filter((e) => e.topic === 'resumed').map((e) => (e.payload as { handle: string }).handle),
            [first.handles.at(-1)],
          );
        },
      ));

    it('a dropped connection (no goAway, the hour is up) is resumed at once, without an error', () =>
      onLiveDevice(
        [
          { transcript: 'remember the number 7', text: 'one' },
          { transcript: 'which number?', text: 'two' },
        ],
        async ({ events, turn }) => {
          await turn();
          await handleAfterTurn(0);
          fake.live.drop(1011);
          // Reopened before the person speaks again: the next turn finds the connection ready.
          const second = await waitFor(() => fake.live.sessions[1]?.setup && fake.live.sessions[1], 'a resumed connection');
          assert.equal(second.resumedFrom, fake.live.sessions[0].handles.at(-1));
          await turn();
          assert.deepEqual(second.conversation.turns, ['remember the number 7', 'which number?']);
          assert.equal(fake.live.sessions.length, 2);
          assert.deepEqual(
            events.filter((e) => e.topic === 'error'),
            [],
          );
        },
      ));

    it('a handle Gemini no longer takes: a fresh session answers the turn, and the owner is told the memory is gone', () =>
      onLiveDevice(
        [
          { transcript: 'first', text: 'one' },
          { transcript: 'second', text: 'two' },
        ],
        async ({ events, voice, turn }) => {
          await turn();
          await handleAfterTurn(0);
          await goAwayAndClose(0);
          fake.live.forgetHandles();
          await turn();
          const [first, refused, fresh] = fake.live.sessions;
          assert.equal(refused.closed?.code, 1007, 'the resumption was refused');
          assert.equal(fresh.setup.sessionResumption.handle, undefined);
          assert.notEqual(fresh.conversation.id, first.conversation.id);
          assert.deepEqual(fresh.conversation.turns, ['second']);
          const failed = events.filter((e) => e.topic === 'resumption_failed');
          assert.equal(failed.length, 1);
          assert.match((failed[0].payload as Error).message, /1007/);
          assert.deepEqual(
            events.filter((e) => e.topic === 'error'),
            [],
          );
          assert.equal(voice.speaker.report.ttsStops, 2, 'both turns were answered');
        },
      ));

    it('a turn that ends before the connection is set up is still answered (listen stop while Live sets up)', async () => {
      fake.live.slowSetup(400);
      try {
        await onLiveDevice([{ transcript: 'hello', text: 'hi' }], async ({ events, voice, turn }) => {
          await turn(); // the device's audio and its listen stop arrive well before the 400 ms setup completes
          assert.equal(voice.speaker.report.ttsStops, 1, 'the turn was answered');
          assert.deepEqual(fake.live.sessions[0].conversation.turns, ['hello']);
          assert.deepEqual(
            events.filter((e) => e.topic === 'error'),
            [],
          );
        });
      } finally {
        fake.live.slowSetup(0);
      }
    });

    it('a wrong key and an unknown model end as errors with the close code and no key', async () => {
      for (const [options, code] of [
        [{ key: 'AIzaSy-wrong-key-0000' }, 1007],
        [{ model: 'gemini-flash-latest' }, 1008],
      ] as const) {
        const events: LiveBridgeEvent[] = [];
        const { server, device, voice } = await liveDevice({ ...options, events });
        try {
          voice.listenStart('auto');
          const err = (await waitFor(() => events.find((e) => e.topic === 'error'), 'an error')).payload as any;
          assert.equal(err.details.code, code);
          assert.match(err.message, /before its setup completed/);
          assert.ok(!err.message.includes(KEY) && !err.message.includes('AIzaSy-wrong-key-0000'));
        } finally {
          device.close();
          await server.close();
        }
      }
    });

    it('connect() never rejecting is covered: a refused port and a server that never completes setup both fail', async () => {
      const probe = createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
      const deadPort = (probe.address() as AddressInfo).port;
      await new Promise((r) => probe.close(r));
      const catalog = { declarations: [], routes: new Map(), warnings: [], unavailable: [] };
      const refused = createGeminiClient({ apiKey: KEY, baseUrl: `http://127.0.0.1:${deadPort}` });
      await assert.rejects(
        LiveSession.open({ client: refused, catalog, executor: mcpExecutor(), secrets: [KEY], connectTimeoutMs: 5000 }, {}),
        /before its setup completed/,
      );
      const silent = new WebSocketServer({ host: '127.0.0.1', port: 0 });
      await new Promise((r) => silent.once('listening', r));
      try {
        const mute = createGeminiClient({ apiKey: KEY, baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` });
        await assert.rejects(LiveSession.open({ client: mute, catalog, executor: mcpExecutor(), secrets: [KEY], connectTimeoutMs: 300 }, {}), /within 0.3 s/);
      } finally {
        for (const c of silent.clients) c.terminate();
        await new Promise((r) => silent.close(r));
      }
    });
  });
}

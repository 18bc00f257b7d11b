// bench/voice: how much latency and CPU does the voice path add?
// One process, one run, loopback only: simulated xiaozhi devices (real Opus, real WebSocket) talk
// to the esp32-listener's WebSocket listener with its voice hub (the MCP handshake with each device
// runs alongside, as in Node-RED), which answers through the fake Gemini set to answer after a
// fixed delay.
//   latency: from the device's end of speech (`listen stop`, push-to-talk) to its first received
//     audio frame, pipeline mode (utterance WAV → Gemini TTS → paced Opus) and live mode (Live
//     stream → audio back). Baseline: the same fake answering the bare SDK call (same delay), so
//     "added" = total − baseline is what our path costs, including the deliberate 40 ms pause
//     between `tts start` and the first frame (the firmware drops audio before it is Speaking).
//   CPU: decode (16 kHz uplink) + encode (24 kHz downlink) per second of audio, and what that
//     means in conversations one core holds in real time.
//   load: N devices talking at once (pipeline mode), each answer checked for underruns/overflows.
import { createGeminiClient } from '../src/gemini/client';
import { synthesizeSpeech } from '../src/gemini/tts';
import { LiveSession } from '../src/gemini/live-session';
import { OpusDecoder, OpusEncoder, pcmFromBytes, type PcmAudio } from '../src/audio';
import type { VoiceHub, VoiceHubOptions } from '../src/voice/voice-hub';
import { startVoiceListener, pushToTalk } from './voice-rig';
import { startFakeGemini, reply, ANSWER_PCM } from '../test/peers/fake-gemini';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice, DeviceMicrophone, speechSamples } from '../test/peers/xiaozhi-device';
import type { SpeechSynthesizer } from '../src/voice/conversation';

const KEY = 'bench-voice-key-0123456789';
const DELAY = Number(process.env.BENCH_DELAY_MS ?? 300);
const TURNS = Number(process.env.BENCH_TURNS ?? 6);
const LOAD = Number(process.env.BENCH_LOAD ?? 20);
const ANSWER: PcmAudio = { samples: pcmFromBytes(ANSWER_PCM), sampleRate: 24000 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main() {
  const fake = await startFakeGemini({ apiKey: KEY });
  const client = createGeminiClient({ apiKey: KEY, baseUrl: fake.url });

  // Baseline: the bare SDK call to the same fake with the same delay.
  const baseline: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    fake.script({ ...reply.audio(ANSWER_PCM), delayMs: DELAY });
    const t = performance.now();
    await client.models.generateContent({ model: 'gemini-3.8-flash-tts', contents: 'x', config: { responseModalities: ['AUDIO'] } });
    baseline.push(performance.now() - t);
  }

  // Pipeline mode: utterance → TTS (fake, DELAY) → paced Opus.
  const tts: SpeechSynthesizer = (text, signal) => synthesizeSpeech({ client, text, signal, secrets: [KEY] });
  const pipeline = await startVoiceListener(answering(tts));
  const pipelineTotals = await turns(pipeline.url, () => fake.script({ ...reply.audio(ANSWER_PCM), delayMs: DELAY }));
  await pipeline.close();

  // Live mode: device audio streamed to the fake Live API, answer after DELAY.
  const catalog = { declarations: [], routes: new Map(), warnings: [], unavailable: [] };
  const live = await startVoiceListener(() => ({
    mode: 'live',
    openLive: (_device, events) =>
      LiveSession.open({ client, catalog, executor: async () => ({ response: { output: 'ok' }, isError: false }), secrets: [KEY] }, events),
  }));
  const liveTotals = await turns(live.url, () => fake.live.script({ delayMs: DELAY }));
  await live.close();

  const base = median(baseline);
  console.log(`voice bench: fake Gemini answers after ${DELAY} ms; ${TURNS} turns per mode; median (max)`);
  console.log(`  baseline: bare SDK TTS call to the fake              ${ms(base)}`);
  for (const [name, totals] of [
    ['pipeline (utterance → TTS → device)', pipelineTotals],
    ['live (device ⇄ Live API)          ', liveTotals],
  ] as const) {
    const m = median(totals);
    console.log(
      `  ${name}  end of speech → first frame ${ms(m)} (${ms(max(totals))}); added over the ${DELAY} ms delay ${ms(m - DELAY)}; ratio to baseline ${(m / base).toFixed(2)}`,
    );
  }
  console.log(
    `  (live includes the 40 ms pause between tts start and the first frame that the firmware needs; in pipeline mode tts start goes out before the TTS request, so the pause overlaps it)`,
  );

  cpu();
  await load(fake, client);
  await fake.close();
}

/** Flow mode answered as the example flow does: each utterance gets a spoken text (here without the agent). */
function answering(tts: SpeechSynthesizer): (hub: () => VoiceHub) => VoiceHubOptions {
  return (hub) => ({ mode: 'flow', onUtterance: (device) => void hub().conversation(device.id)?.speak('The kitchen light is on.', { tts }) });
}

/** TURNS conversations in a row: a fresh connection each (as the firmware does), push-to-talk. */
async function turns(url: string, script: () => void): Promise<number[]> {
  const totals: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    script();
    const device = await XiaozhiWsDevice.connect({ url, deviceId: `be:nc:h0:00:00:${String(i).padStart(2, '0')}`, fixture: lichuangDev() });
    const voice = await DeviceVoice.overWebSocket(device);
    const first = new Promise<number>((r) => voice.speaker.once('first-audio', r));
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'manual', realTime: true });
    totals.push((await first) - voice.endOfSpeechAt!);
    await stopped;
    device.close();
  }
  return totals;
}

function cpu(): void {
  const uplink = new DeviceMicrophone().frames(speechSamples());
  const uplinkSeconds = (uplink.length * 60) / 1000;
  const answerSeconds = ANSWER.samples.length / 24000;
  const cpuMs = (f: () => void) => {
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  const rounds = 15;
  const decodeMs =
    cpuMs(() => {
      for (let r = 0; r < rounds; r++) {
        const decoder = new OpusDecoder(16000);
        for (const p of uplink) decoder.decode(p);
      }
    }) /
    (rounds * uplinkSeconds);
  for (const complexity of [5, 10]) {
    const encodeMs =
      cpuMs(() => {
        for (let r = 0; r < rounds; r++) {
          const encoder = new OpusEncoder({ sampleRate: 24000, frameMs: 60, complexity });
          encoder.push(ANSWER.samples);
          encoder.flush();
        }
      }) /
      (rounds * answerSeconds);
    const both = decodeMs + encodeMs;
    console.log(
      `  CPU per second of audio, encoder complexity ${complexity}: decode 16 kHz ${ms(decodeMs)} + encode 24 kHz ${ms(encodeMs)} = ${ms(both)} ` +
        `(real-time factor ${(both / 1000).toFixed(4)}); one core decodes and encodes ~${Math.floor(1000 / both)} conversations at once`,
    );
  }
}

/** LOAD devices talking at the same moment (pipeline mode), everything in this one process. */
async function load(fake: Awaited<ReturnType<typeof startFakeGemini>>, client: ReturnType<typeof createGeminiClient>): Promise<void> {
  const server = await startVoiceListener(answering((text, signal) => synthesizeSpeech({ client, text, signal, secrets: [KEY] })));
  // Baseline under the same concurrency: LOAD bare SDK calls at once to the same fake.
  for (let i = 0; i < LOAD; i++) fake.script({ ...reply.audio(ANSWER_PCM), delayMs: DELAY });
  const t0 = performance.now();
  const bare = await Promise.all(
    Array.from({ length: LOAD }, () =>
      client.models
        .generateContent({ model: 'gemini-3.8-flash-tts', contents: 'x', config: { responseModalities: ['AUDIO'] } })
        .then(() => performance.now() - t0),
    ),
  );
  for (let i = 0; i < LOAD; i++) fake.script({ ...reply.audio(ANSWER_PCM), delayMs: DELAY });
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const results = await Promise.all(Array.from({ length: LOAD }, (_, i) => pushToTalk(server.url, `10:ad:00:00:00:${String(i).padStart(2, '0')}`)));
  const wall = performance.now() - wallStart;
  const cpuUsed = process.cpuUsage(cpuStart);
  await server.close();
  const lat = results.map((r) => r.latency);
  const underruns = results.reduce((n, r) => n + r.report.underruns, 0);
  const overflows = results.reduce((n, r) => n + r.report.overflows, 0);
  const complete = results.filter((r) => Math.abs(r.report.playedMs - ANSWER.samples.length / 24) <= 60).length;
  console.log(
    `  load: ${LOAD} devices at once (simulators, engine and fake in one process): end of speech → first frame median ${ms(median(lat))}, max ${ms(max(lat))}; ` +
      `added over the ${DELAY} ms delay median ${ms(median(lat) - DELAY)}, max ${ms(max(lat) - DELAY)} ` +
      `(for scale: ${LOAD} bare SDK calls fired at the same instant take median ${ms(median(bare))}, ratio ${(median(lat) / median(bare)).toFixed(2)}); ` +
      `${complete}/${LOAD} answers played whole, ${underruns} underruns, ${overflows} overflows; process CPU ${(((cpuUsed.user + cpuUsed.system) / 1000 / wall) * 100).toFixed(0)}% of one core`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

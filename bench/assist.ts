// bench/assist: how much latency does the assist voice path add to Home Assistant's own time?
// Loopback only, two processes as in a home: this one is Node-RED's side (the esp32 WebSocket
// listener with an assist voice hub); a child holds what runs elsewhere in reality: the Home
// Assistant stand-in (test/peers/home-assistant), which waits a fixed delay in each stage (stt,
// intent, tts), and simulated xiaozhi devices (real Opus, real WebSocket) talking push-to-talk.
// Both timestamps of each figure are taken in the child.
//   ours: the device's end of speech (`listen stop`) → its first received audio frame.
//   baseline: a bare client of Home Assistant's WebSocket API doing the same run (same PCM), from
//     its end marker → the first bytes of the TTS file: Home Assistant's stages, delays included.
//   added = ours − baseline: what our path costs (Opus decode of the uplink's last frames, the end
//     marker, the TTS decode and Opus encode of the first frame, the 40 ms pause the firmware needs
//     between `tts start` and the first frame), for one device and for LOAD devices at once.
import { fork } from 'node:child_process';
import WebSocket from 'ws';
import { HomeAssistantLink } from '../src/home-assistant/connection';
import { startAssistRun } from '../src/home-assistant/pipeline-run';
import { streamTtsAudio } from '../src/home-assistant/tts-audio';
import { homeAssistantUrls } from '../src/home-assistant/urls';
import { startVoiceListener, pushToTalk } from './voice-rig';
import { startHomeAssistant, type HomeAssistantStandIn } from '../test/peers/home-assistant';
import { speechSamples } from '../test/peers/xiaozhi-device';

const STAGE_DELAY = Number(process.env.BENCH_STAGE_DELAY_MS ?? 50);
const TURNS = Number(process.env.BENCH_TURNS ?? 6);
const LOAD = Number(process.env.BENCH_LOAD ?? 20);
/** rounds of LOAD devices at once */
const LOAD_ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);
const ms = (x: number) => `${x.toFixed(1)} ms`;

interface Figures {
  base1: number[];
  ours1: number[];
  baseN: number[];
  oursN: number[];
}

/** Node-RED's side: the listener; the child reports the figures. */
async function main() {
  const child = fork(__filename, ['peers'], { execArgv: ['--import', 'tsx'], stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  const ha = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the peers process exited (${code})`)));
  });
  const server = await startAssistListener(ha);
  const figures = new Promise<Figures>((resolve) => child.once('message', resolve as (m: unknown) => void));
  child.send({ listener: server.url });
  const { base1, ours1, baseN, oursN } = await figures;
  child.send('stop');
  await server.close();

  console.log(`assist bench: Home Assistant stand-in waits ${STAGE_DELAY} ms per stage (stt, intent, tts); median (max)`);
  for (const [name, ours, base] of [
    ['1 device  ', ours1, base1],
    [`${LOAD} at once`, oursN, baseN],
  ] as const) {
    const m = median(ours);
    const b = median(base);
    console.log(
      `  ${name}: end of speech → first frame at the device ${ms(m)} (${ms(max(ours))}); bare Home Assistant client end marker → first TTS bytes ${ms(b)} (${ms(max(base))}); ` +
        `added by us ${ms(m - b)}; ratio ${(m / b).toFixed(2)}`,
    );
  }
  console.log(
    `  (${TURNS} turns for 1 device, ${LOAD_ROUNDS} rounds of ${LOAD}; added includes the 40 ms pause between tts start and the first frame that the firmware needs)`,
  );
}

/** The child: Home Assistant's stand-in, the devices and the bare client. */
async function peers() {
  const ha = await startHomeAssistant({ assist: true });
  ha.assist!.delays = { stt: STAGE_DELAY, intent: STAGE_DELAY, tts: STAGE_DELAY };
  const urls = homeAssistantUrls(ha.url);
  const speech = Buffer.from(speechSamples().buffer);
  const listener = new Promise<string>((resolve) => process.once('message', (m: { listener: string }) => resolve(m.listener)));
  process.send!({ url: ha.url, token: ha.token });
  const url = await listener;

  const figures: Figures = { base1: [], ours1: [], baseN: [], oursN: [] };
  for (let i = 0; i < TURNS; i++) figures.base1.push(await bareRun(urls.websocket, ha, speech));
  for (let i = 0; i < TURNS; i++) figures.ours1.push(...(await talk(url, 1, i)));
  for (let r = 0; r < LOAD_ROUNDS; r++) {
    figures.baseN.push(...(await Promise.all(Array.from({ length: LOAD }, () => bareRun(urls.websocket, ha, speech)))));
    figures.oursN.push(...(await talk(url, LOAD, 100 + r * LOAD)));
  }
  process.once('message', async () => {
    await ha.close();
    process.exit(0);
  });
  process.send!(figures);
}

/** The esp32-listener's WebSocket listener with an assist voice hub reaching the stand-in. */
async function startAssistListener(ha: { url: string; token: string }): Promise<{ url: string; close(): Promise<void> }> {
  const urls = homeAssistantUrls(ha.url);
  const link = new HomeAssistantLink({ websocketUrl: urls.websocket, token: async () => ha.token });
  const server = await startVoiceListener(() => ({
    mode: 'assist',
    openAssist: () => ({
      startRun: async (options, onEvent) => startAssistRun(await link.connection(), { conversationId: options.conversationId }, onEvent),
      playAnswer: (tts, onAudio, signal) => streamTtsAudio({ base: urls.base, url: tts.url, mimeType: tts.mimeType, token: ha.token, signal }, onAudio),
    }),
  }));
  return {
    url: server.url,
    async close() {
      await server.close();
      link.close();
    },
  };
}

/** `count` devices at once, one push-to-talk turn each: end of speech → first audio frame. */
async function talk(url: string, count: number, idBase: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const n = idBase + i;
      const { latency } = await pushToTalk(url, `a5:51:00:00:${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`);
      return latency;
    }),
  );
}

/** A bare client: auth, the same run, the speech at once, the end marker, tts-end, the first bytes of the file. */
async function bareRun(websocketUrl: string, ha: HomeAssistantStandIn, speech: Buffer): Promise<number> {
  const ws = new WebSocket(websocketUrl);
  let endAt = 0;
  const done = new Promise<number>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: ha.token }));
      else if (m.type === 'auth_ok')
        ws.send(JSON.stringify({ id: 1, type: 'assist_pipeline/run', start_stage: 'stt', end_stage: 'tts', input: { sample_rate: 16000 } }));
      else if (m.type === 'event' && m.event.type === 'run-start') {
        const h = m.event.data.runner_data.stt_binary_handler_id;
        for (let at = 0; at < speech.length; at += 1920) ws.send(Buffer.concat([Buffer.of(h), speech.subarray(at, at + 1920)]));
        endAt = performance.now();
        ws.send(Buffer.of(h));
      } else if (m.type === 'event' && m.event.type === 'tts-end') {
        const url = new URL(m.event.data.tts_output.url, websocketUrl.replace(/^ws/, 'http')).href;
        fetch(url, { headers: { authorization: `Bearer ${ha.token}` } }).then(async (res) => {
          const reader = res.body!.getReader();
          await reader.read();
          const at = performance.now();
          await reader.cancel();
          resolve(at - endAt);
        }, reject);
      }
    });
  });
  const took = await done;
  ws.close();
  return took;
}

(process.argv[2] === 'peers' ? peers() : main()).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

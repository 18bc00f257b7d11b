// Gives a simulated device its microphone and speaker on either transport: over WebSocket the audio
// rides in binary frames framed for the device's protocol version; over MQTT the device asks for a
// UDP channel in its hello, checks the reply as the firmware does, and talks encrypted UDP.
// `say()` is the person speaking: `listen start`, real-time 60 ms Opus frames of the speech
// fixture, then `listen stop` (manual) or room silence (auto, the server's VAD must end the turn).
import { parseJsonOrUndefined } from '../parse-json';
import { EventEmitter } from 'node:events';
import { DeviceMicrophone, MIC_FRAME_MS, speechSamples } from './microphone';
import { DeviceSpeaker } from './speaker';
import { DeviceUdpChannel, frameForServer, payloadFromServer, udpHelloProblem } from './audio-wire';
import type { XiaozhiWsDevice } from './ws-device';
import type { XiaozhiMqttDevice } from './mqtt-device';

export interface SayOptions {
  mode?: 'manual' | 'auto' | 'realtime';
  /** default: the speech fixture */
  samples?: Int16Array;
  /** false sends all frames at once (no 60 ms spacing) */
  realTime?: boolean;
  /** auto mode: room silence sent after the speech, ms (default 1500) */
  trailingSilenceMs?: number;
  wakeWord?: string;
}

export class DeviceVoice extends EventEmitter {
  readonly speaker = new DeviceSpeaker();
  readonly mic = new DeviceMicrophone();
  /** performance.now() when the person stopped talking (last speech frame / listen stop sent) */
  endOfSpeechAt: number | undefined;
  private readonly started = performance.now();

  private constructor(
    private readonly sendJson: (raw: string) => void,
    private readonly sendOpus: (opus: Buffer, timestamp: number) => void,
    private readonly sessionId: () => string,
  ) {
    super();
  }

  /** Voice for a WebSocket device; resolves once the server hello configured the speaker. */
  static async overWebSocket(device: XiaozhiWsDevice): Promise<DeviceVoice> {
    const version = Number(device.opts.protocolVersion ?? '1');
    const voice = new DeviceVoice(
      (raw) => device.sendText(raw),
      (opus, ts) => device.sendBinary(frameForServer(version, opus, ts)),
      () => device.sessionId,
    );
    device.ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) voice.speaker.onAudio(payloadFromServer(version, data));
      else voice.onText(data.toString());
    });
    const hello = await device.serverHello;
    voice.speaker.configure(hello.audio_params);
    return voice;
  }

  /** Voice for an MQTT device: publishes the UDP hello and opens the UDP channel from the reply. */
  static async overMqtt(device: XiaozhiMqttDevice, timeoutMs = 10_000): Promise<DeviceVoice & { udp: DeviceUdpChannel }> {
    // eslint-disable-next-line prefer-const -- the voice wrapper below reads it once the UDP hello arrives
    let udp: DeviceUdpChannel | undefined;
    const voice = new DeviceVoice(
      (raw) => device.publish(raw),
      (opus, ts) => udp?.send(opus, ts),
      () => device.sessionId,
    ) as DeviceVoice & { udp: DeviceUdpChannel };
    const hello = new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('SERVER_TIMEOUT: no UDP hello reply within 10 s')), timeoutMs);
      device.client.on('message', (_topic: string, payload: Buffer) => {
        const frame = parseJsonOrUndefined(payload.toString());
        if (frame === undefined) return;
        if (frame.type === 'hello') {
          clearTimeout(timer);
          if (frame.transport !== 'udp') return reject(new Error(`hello reply with transport ${frame.transport}`));
          const problem = udpHelloProblem(frame.udp);
          if (problem) return reject(new Error(`the firmware rejects this hello: ${problem}`));
          resolve(frame);
        } else voice.onText(payload.toString());
      });
    });
    device.sendHello();
    const reply = await hello;
    device.sessionId = String(reply.session_id ?? '');
    voice.speaker.configure(reply.audio_params);
    udp = new DeviceUdpChannel(reply.udp, (opus) => voice.speaker.onAudio(opus), device.opts.localAddress);
    voice.udp = udp;
    device.client.once('end', () => udp?.close()); // the UDP channel lives as long as the device's MQTT session
    return voice;
  }

  /** The person says something; resolves when the device has sent it all. */
  async say(options: SayOptions = {}): Promise<void> {
    const mode = options.mode ?? 'manual';
    if (options.wakeWord) this.sendJson(`{"session_id":"${this.sessionId()}","type":"listen","state":"detect","text":"${options.wakeWord}"}`);
    this.listenStart(mode);
    const speech = this.mic.frames(options.samples ?? speechSamples());
    const tail = mode === 'manual' ? [] : this.mic.silence(options.trailingSilenceMs ?? 1500);
    // The first packet exists only once a whole frame has been captured after listening started.
    if (options.realTime === false) await new Promise((r) => setTimeout(r, MIC_FRAME_MS));
    await this.stream(speech, options.realTime !== false, options.realTime === false ? 0 : 1);
    this.endOfSpeechAt = performance.now();
    if (mode === 'manual') this.listenStop();
    else await this.stream(tail, options.realTime !== false);
  }

  listenStart(mode: 'manual' | 'auto' | 'realtime' = 'manual'): void {
    this.sendJson(`{"session_id":"${this.sessionId()}","type":"listen","state":"start","mode":"${mode}"}`);
  }

  listenStop(): void {
    this.endOfSpeechAt = performance.now();
    this.sendJson(`{"session_id":"${this.sessionId()}","type":"listen","state":"stop"}`);
  }

  abort(reason?: string): void {
    this.sendJson(`{"session_id":"${this.sessionId()}","type":"abort"${reason ? `,"reason":"${reason}"` : ''}}`);
  }

  sendOpusPacket(opus: Buffer): void {
    this.sendOpus(opus, Math.round(performance.now() - this.started));
  }

  private async stream(frames: Buffer[], realTime: boolean, firstFrame = 0): Promise<void> {
    const start = performance.now();
    for (let i = 0; i < frames.length; i++) {
      if (realTime) {
        const due = start + (i + firstFrame) * MIC_FRAME_MS - performance.now();
        if (due > 0) await new Promise((r) => setTimeout(r, due));
      }
      this.sendOpusPacket(frames[i]);
    }
  }

  private onText(text: string): void {
    const frame = parseJsonOrUndefined(text);
    if (frame === undefined) return;
    this.speaker.onJson(frame);
    this.emit('json', frame);
  }
}

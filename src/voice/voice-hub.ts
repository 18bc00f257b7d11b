// Everything a device listener needs for voice, behind four calls, so the esp32-listener stays a
// transport: on a device hello it opens a channel (WebSocket: binary frames in the device's
// protocol version; MQTT: a UDP session whose key/nonce go into the hello answer), then hands over
// the device's JSON and binary frames, and closes the channel when the device goes. The hub makes
// one Conversation per channel and, by mode, emits utterances ("flow") or bridges to Gemini Live
// ("live"). It is also the DeviceConversations that esp32-say speaks through.
import { Conversation } from './conversation';
import { decodeAudioFrame, encodeAudioFrame, protocolVersion } from './binary-protocol';
import { DEFAULT_DOWNLINK, helloAudioParams, type AudioParams } from './device-link';
import { LiveBridge, type LiveBridgeEvent } from './live-bridge';
import { AssistBridge, type AssistBridgeEvent, type AssistBridgeOptions } from './assist-bridge';
import { UdpAudioServer, type UdpHelloPart } from './udp-audio-server';
import type { Utterance } from './conversation';
import type { DeviceConversations } from './device-conversations';
import type { AudioChannels } from '../esp32/listener';
import type { LiveEvents, LiveSession } from '../gemini/live-session';

export type VoiceMode = 'off' | 'flow' | 'live' | 'assist';

export interface VoiceDevice {
  id: string;
  transport: string;
  sessionId?: string;
  /** `audio_params` of the device's hello: its frame_duration is used for downlink too */
  audioParams?: AudioParams;
}

export interface VoiceHubOptions {
  mode: VoiceMode;
  downlink?: { sampleRate: number; frameMs: number };
  /** mqtt-gateway: where the UDP audio socket listens (default 0.0.0.0, any free port) */
  udp?: { port?: number; bind?: string };
  onUtterance?: (device: VoiceDevice, utterance: Utterance) => void;
  /** live mode: opens a Gemini Live session for one conversation */
  openLive?: (device: VoiceDevice, events: LiveEvents, resumeHandle?: string) => Promise<LiveSession>;
  onLiveEvent?: (device: VoiceDevice, event: LiveBridgeEvent) => void;
  /** assist mode: how one device's turns reach the Home Assistant pipeline */
  openAssist?: (device: VoiceDevice) => Omit<AssistBridgeOptions, 'conversation' | 'onEvent'>;
  onAssistEvent?: (device: VoiceDevice, event: AssistBridgeEvent) => void;
}

/** One device's open audio channel. */
export interface VoiceChannel {
  conversation: Conversation;
  /** Fields to merge into the hello answer: `audio_params` (and `udp` for MQTT). */
  hello: { audio_params: Required<AudioParams>; udp?: UdpHelloPart };
  /** A device JSON message; true when it was for voice (listen, abort). */
  handleJson(message: unknown): boolean;
  /** A WebSocket binary frame (WebSocket channels only). */
  handleBinary(frame: Buffer): void;
  close(): void;
}

export interface HubStats {
  /** binary frames with a header that does not add up */
  badFrames: number;
}

export class VoiceHub implements DeviceConversations, AudioChannels {
  readonly stats: HubStats = { badFrames: 0 };
  private readonly channels = new Map<string, VoiceChannel>();
  private udp: Promise<UdpAudioServer> | undefined;
  private closed = false;

  constructor(private readonly options: VoiceHubOptions) {}

  get voiceMode(): string {
    return this.options.mode;
  }

  conversation(deviceId: string): Conversation | undefined {
    return this.channels.get(deviceId)?.conversation;
  }

  /** WebSocket device hello: `version` is the Protocol-Version header (or the hello's `version`). */
  openWebSocket(device: VoiceDevice, version: unknown, send: { json(m: Record<string, unknown>): void; binary(b: Buffer): void }): VoiceChannel {
    const v = protocolVersion(version);
    const downlink = this.downlinkFor(device);
    const conversation = this.conversationFor(device, downlink, { sendJson: send.json, sendAudio: (opus) => send.binary(encodeAudioFrame(v, opus)) }, 0);
    const channel: VoiceChannel = {
      conversation,
      hello: { audio_params: helloAudioParams(downlink) },
      handleJson: (m) => conversation.handleJson(m),
      handleBinary: (frame) => {
        const decoded = decodeAudioFrame(v, frame);
        if (!decoded) this.stats.badFrames++;
        else conversation.handleAudio(decoded.payload);
      },
      close: () => this.closeChannel(device.id, channel),
    };
    return this.register(device.id, channel);
  }

  /**
   * MQTT device hello asking for UDP. `host`: the address the device can reach this machine at (the
   * local address of its MQTT connection); `deviceAddress`: the device's IP on that connection, the
   * only source UDP audio is accepted from.
   */
  async openUdp(device: VoiceDevice, host: string, sendJson: (m: Record<string, unknown>) => void, deviceAddress?: string): Promise<VoiceChannel> {
    this.udp ??= UdpAudioServer.start({ port: this.options.udp?.port, bind: this.options.udp?.bind });
    const server = await this.udp;
    const session = server.open(deviceAddress);
    // Over MQTT + UDP the last datagrams may overtake `listen stop`: accept them for 40 ms more.
    const downlink = this.downlinkFor(device);
    const conversation = this.conversationFor(device, downlink, { sendJson, sendAudio: (opus) => void session.sendAudio(opus) }, 40);
    session.on('audio', (opus: Buffer) => conversation.handleAudio(opus));
    const channel: VoiceChannel = {
      conversation,
      hello: { audio_params: helloAudioParams(downlink), udp: session.helloPart(host) },
      handleJson: (m) => conversation.handleJson(m),
      handleBinary: () => undefined,
      close: () => {
        session.close();
        this.closeChannel(device.id, channel);
      },
    };
    return this.register(device.id, channel);
  }

  /** The listener closed (its last user went): every channel ends and the UDP socket is let go; a later hello opens them again. */
  async release(): Promise<void> {
    for (const c of [...this.channels.values()]) c.close();
    const udp = this.udp;
    this.udp = undefined;
    if (udp) await (await udp.catch(() => undefined))?.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.release();
  }

  /**
   * 24 kHz (Gemini's output rate, so Live audio needs no resampling) in frames of the duration the
   * device uses itself when it is one Opus can encode (firmware: 60 ms), else 60 ms.
   */
  private downlinkFor(device: VoiceDevice): { sampleRate: number; frameMs: number } {
    const base = this.options.downlink ?? DEFAULT_DOWNLINK;
    const asked = Number(device.audioParams?.frame_duration);
    return { sampleRate: base.sampleRate, frameMs: [20, 40, 60].includes(asked) ? asked : base.frameMs };
  }

  private conversationFor(
    device: VoiceDevice,
    downlink: { sampleRate: number; frameMs: number },
    link: ConstructorParameters<typeof Conversation>[0]['link'],
    stopGraceMs: number,
  ): Conversation {
    const live = this.options.mode === 'live';
    const assist = this.options.mode === 'assist';
    // Live and assist stream the microphone as it comes; flow collects whole utterances.
    const conversation = new Conversation({ link, sessionId: device.sessionId, downlink, collect: !live && !assist, stopGraceMs });
    if (this.options.mode === 'flow') conversation.on('utterance', (u) => this.options.onUtterance?.(device, u));
    if (live && this.options.openLive) {
      new LiveBridge({
        conversation,
        open: (events, resumeHandle) => this.options.openLive!(device, events, resumeHandle),
        onEvent: (e) => this.options.onLiveEvent?.(device, e),
      });
    }
    if (assist && this.options.openAssist) {
      new AssistBridge({ conversation, ...this.options.openAssist(device), onEvent: (e) => this.options.onAssistEvent?.(device, e) });
    }
    return conversation;
  }

  private register(deviceId: string, channel: VoiceChannel): VoiceChannel {
    // A new hello replaces the device's previous channel (the firmware opens one per conversation).
    const previous = this.channels.get(deviceId);
    this.channels.set(deviceId, channel);
    if (previous && previous !== channel) previous.close();
    if (this.closed) channel.close();
    return channel;
  }

  private closeChannel(deviceId: string, channel: VoiceChannel): void {
    channel.conversation.close();
    if (this.channels.get(deviceId) === channel) this.channels.delete(deviceId);
  }
}

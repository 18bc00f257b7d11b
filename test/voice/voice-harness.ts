// Engine-level servers for the voice specs, built only from the voice engine (the real listener
// wiring is src/esp32/carriage/ws-listener.ts and mqtt-audio.ts, tested in listener-node.test.ts): it answers the device hello with downlink audio_params, creates one
// Conversation per audio channel and moves frames between the transport and the conversation.
// Over WebSocket: binary frames in the device's protocol version. Over MQTT: an in-process aedes
// broker (the device subscribes to its topic) plus the UDP audio server.
import { parseJsonOrUndefined } from '../peers/parse-json';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { Conversation, type ConversationOptions } from '../../src/voice/conversation';
import { decodeAudioFrame, encodeAudioFrame, protocolVersion } from '../../src/voice/binary-protocol';
import { helloAudioParams, DEFAULT_DOWNLINK } from '../../src/voice/device-link';
import { UdpAudioServer } from '../../src/voice/udp-audio-server';
import type { VoiceChannel, VoiceHub } from '../../src/voice/voice-hub';

const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<any>;

export type ConversationFactory = (
  base: Pick<ConversationOptions, 'link' | 'sessionId' | 'stopGraceMs'>,
  device: { id: string; transport: string },
) => Conversation;

export interface HarnessStats {
  /** binary frames that came before the device hello (dropped) */
  audioBeforeHello: number;
  /** frames whose header was malformed (dropped) */
  badFrames: number;
}

export interface WsVoiceServer {
  url: string;
  stats: HarnessStats;
  conversations: Conversation[];
  close(): Promise<void>;
}

export async function startWsVoiceServer(factory: ConversationFactory): Promise<WsVoiceServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const stats: HarnessStats = { audioBeforeHello: 0, badFrames: 0 };
  const conversations: Conversation[] = [];
  wss.on('connection', (ws: WebSocket, req) => {
    const version = protocolVersion(req.headers['protocol-version']);
    const deviceId = String(req.headers['device-id'] ?? 'unknown');
    let conversation: Conversation | undefined;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        if (!conversation) return void stats.audioBeforeHello++;
        const frame = decodeAudioFrame(version, data);
        if (!frame) return void stats.badFrames++;
        conversation.handleAudio(frame.payload);
        return;
      }
      const json = parseJsonOrUndefined(data.toString());
      if (json === undefined) return;
      if (json.type === 'hello') {
        const sessionId = randomUUID();
        ws.send(JSON.stringify({ type: 'hello', transport: 'websocket', session_id: sessionId, audio_params: helloAudioParams(DEFAULT_DOWNLINK) }));
        conversation?.close();
        conversation = factory(
          {
            sessionId,
            link: {
              sendJson: (m) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m)),
              sendAudio: (opus) => ws.readyState === ws.OPEN && ws.send(encodeAudioFrame(version, opus), { binary: true }),
            },
          },
          { id: deviceId, transport: 'websocket' },
        );
        conversations.push(conversation);
        return;
      }
      conversation?.handleJson(json);
    });
    ws.on('close', () => conversation?.close());
    ws.on('error', () => undefined);
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/xiaozhi/v1/`,
    stats,
    conversations,
    async close() {
      for (const c of conversations) c.close();
      for (const ws of wss.clients) ws.terminate();
      await new Promise((r) => wss.close(r));
    },
  };
}

export interface MqttVoiceServer {
  url: string;
  udp: UdpAudioServer;
  conversations: Conversation[];
  close(): Promise<void>;
}

/** Each JSON message a device publishes to `device-server`, with a way to answer on its p2p topic. */
function onDeviceJson(broker: any, handle: (json: any, client: any, deliver: (m: Record<string, unknown>) => void, deviceId: string) => void): void {
  broker.on('publish', (packet: any, client: any) => {
    if (!client || packet.topic !== 'device-server') return;
    const json = parseJsonOrUndefined(packet.payload.toString());
    if (json === undefined) return;
    const mac_ = String(client.id).split('@@@')[1] ?? '';
    const deliver = (m: Record<string, unknown>) =>
      broker.publish(
        { topic: `devices/p2p/${mac_}`, payload: Buffer.from(JSON.stringify(m)), qos: 0, retain: false, cmd: 'publish', dup: false },
        () => undefined,
      );
    handle(json, client, deliver, mac_.replace(/_/g, ':'));
  });
}

/** An embedded MQTT broker (aedes) on 127.0.0.1, its sockets tracked so a test can close them. */
async function startLoopbackBroker(): Promise<{ broker: any; server: Server; sockets: Set<Socket> }> {
  const { Aedes } = await importEsm('aedes');
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    // Without it Nagle holds the second of two quick publishes (stt, tts start) for the peer's
    // delayed ACK, ~40 ms, and the device meets audio before it has entered its Speaking state.
    s.setNoDelay(true);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { broker, server, sockets };
}

export async function startMqttVoiceServer(factory: ConversationFactory): Promise<MqttVoiceServer> {
  const { broker, server, sockets } = await startLoopbackBroker();
  const udp = await UdpAudioServer.start({ bind: '127.0.0.1' });
  const conversations: Conversation[] = [];
  const byClient = new Map<string, { conversation: Conversation; close(): void }>();
  onDeviceJson(broker, (json, client, deliver, deviceId) => {
    if (json.type === 'hello' && json.transport === 'udp') {
      byClient.get(client.id)?.close();
      const session = udp.open(client.conn?.remoteAddress);
      const sessionId = randomUUID();
      const conversation = factory(
        { sessionId, stopGraceMs: 40, link: { sendJson: deliver, sendAudio: (opus) => void session.sendAudio(opus) } },
        { id: deviceId, transport: 'mqtt' },
      );
      session.on('audio', (opus: Buffer) => conversation.handleAudio(opus));
      conversations.push(conversation);
      byClient.set(client.id, { conversation, close: () => (conversation.close(), session.close()) });
      deliver({
        type: 'hello',
        transport: 'udp',
        session_id: sessionId,
        audio_params: helloAudioParams(DEFAULT_DOWNLINK),
        udp: session.helloPart('127.0.0.1'),
      });
      return;
    }
    if (json.type === 'goodbye') {
      byClient.get(client.id)?.close();
      byClient.delete(client.id);
      return;
    }
    byClient.get(client.id)?.conversation.handleJson(json);
  });
  broker.on('clientDisconnect', (client: any) => {
    byClient.get(client.id)?.close();
    byClient.delete(client.id);
  });
  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    udp,
    conversations,
    async close() {
      for (const c of byClient.values()) c.close();
      for (const s of sockets) s.destroy();
      await udp.close();
      await new Promise((r) => broker.close(r));
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * The listener wiring with the engine's VoiceHub, as the esp32-listener is to do it: WebSocket
 * devices on one server and MQTT devices on an in-process broker, both handing hello, JSON, binary
 * and disconnects to the hub.
 */
export async function startHubServers(hub: VoiceHub): Promise<{ wsUrl: string; mqttUrl: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (ws: WebSocket, req) => {
    const device = { id: String(req.headers['device-id'] ?? 'unknown'), transport: 'websocket' };
    let channel: VoiceChannel | undefined;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return void channel?.handleBinary(data);
      const json = parseJsonOrUndefined(data.toString());
      if (json === undefined) return;
      if (json.type === 'hello') {
        const sessionId = randomUUID();
        channel = hub.openWebSocket({ ...device, sessionId, audioParams: json.audio_params }, req.headers['protocol-version'], {
          json: (m) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m)),
          binary: (b) => ws.readyState === ws.OPEN && ws.send(b, { binary: true }),
        });
        ws.send(JSON.stringify({ type: 'hello', transport: 'websocket', session_id: sessionId, ...channel.hello }));
        return;
      }
      channel?.handleJson(json);
    });
    ws.on('close', () => channel?.close());
    ws.on('error', () => undefined);
  });

  const { broker, server, sockets } = await startLoopbackBroker();
  const channels = new Map<string, VoiceChannel>();
  onDeviceJson(broker, (json, client, deliver, deviceId) => {
    if (json.type === 'hello' && json.transport === 'udp') {
      const sessionId = randomUUID();
      void hub
        .openUdp({ id: deviceId, transport: 'mqtt', sessionId, audioParams: json.audio_params }, '127.0.0.1', deliver, client.conn?.remoteAddress)
        .then((channel) => {
          channels.set(client.id, channel);
          deliver({ type: 'hello', transport: 'udp', session_id: sessionId, ...channel.hello });
        });
      return;
    }
    if (json.type === 'goodbye') return void channels.get(client.id)?.close();
    channels.get(client.id)?.handleJson(json);
  });
  broker.on('clientDisconnect', (client: any) => channels.get(client.id)?.close());
  return {
    wsUrl: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/xiaozhi/v1/`,
    mqttUrl: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await hub.close();
      for (const ws of wss.clients) ws.terminate();
      await new Promise((r) => wss.close(r));
      for (const s of sockets) s.destroy();
      await new Promise((r) => broker.close(r));
      await new Promise((r) => server.close(r));
    },
  };
}

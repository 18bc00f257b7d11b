// What a user node sees of an `esp32-listener` config node: the shared device listener and
// register/deregister, as core's websocket-listener serves websocket in/out. The listener opens
// for its first user and closes after its last; every registered user shows the listener's status.
import type { ListenerStatus, SharedDeviceListener } from '../../src/esp32/provider/shared-listener';
import { translator } from '../shared/i18n';
import type { DeviceConversations } from '../../src/voice/device-conversations';
import type { ListenerPairing } from './pairing';
import type { VoiceProblem } from '../../src/voice/listener-voice';
import type { Node, NodeStatus, RED } from '../shared/red-types';

export interface Esp32ListenerConfigNode extends Node {
  devices: SharedDeviceListener;
  /** The voice side (docs/voice.md) when `voice` is not "off": esp32-say speaks through it. */
  voice?: DeviceConversations;
  /** Devices joining through their OTA check (pairing.ts); absent when the settings are unusable. */
  pairing?: ListenerPairing;
  register(user: Node): Promise<void>;
  deregister(user: Node): Promise<void>;
}

export function getListenerNode(RED: RED, id: unknown): Esp32ListenerConfigNode | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  const n = RED.nodes.getNode(id) as Esp32ListenerConfigNode | null;
  return n && n.type === 'esp32-listener' && typeof n.register === 'function' ? n : undefined;
}

/** `unsetTokenVariables`: the `${VAR}`s of Tokens that are not set, named in the status as what to do. */
/** What the status shows over the device count: what the voice lacks, and another listener answering the OTA address. */
export interface ListenerNotices {
  voice?: VoiceProblem;
  otaTaken?: boolean;
  /** Devices that checked in and wait for a person to type their code (pairing-book.ts). */
  waitingToPair?: number;
}

export function listenerStatus(RED: RED, s: ListenerStatus, unsetTokenVariables: string[] = [], notices: ListenerNotices = {}): NodeStatus {
  const t = translator(RED, 'esp32-listener');
  // A listener refusing every device says that first: no device could talk anyway.
  const closed = s.kind === 'listening' && s.access === 'nobody';
  // Home Assistant away or refusing (assist): no device can talk. A Live conversation that had to
  // start over (its memory lost) goes on, so yellow, until one is resumed again.
  if (!closed && notices.voice?.kind === 'assist')
    return { fill: 'red', shape: 'ring', text: t('esp32-listener.status.assistProblem', { reason: notices.voice.reason }) };
  if (!closed && notices.voice?.kind === 'live-started-over')
    return { fill: 'yellow', shape: 'ring', text: t('esp32-listener.status.liveStartedOver', { device: notices.voice.device }) };
  // Another listener answers the OTA address: devices checking there would join that one.
  if (!closed && notices.otaTaken && s.kind === 'listening') return { fill: 'yellow', shape: 'ring', text: t('esp32-listener.status.otaTaken') };
  // A device speaking its code is what the person must act on now, whatever the tokens say.
  if (notices.waitingToPair && s.kind === 'listening')
    return { fill: 'yellow', shape: 'ring', text: t('esp32-listener.status.waitingToPair', { count: notices.waitingToPair }) };
  switch (s.kind) {
    case 'starting':
      return { fill: 'yellow', shape: 'ring', text: t('esp32-listener.status.starting') };
    case 'failed':
      return { fill: 'red', shape: 'ring', text: t('esp32-listener.status.failed') };
    case 'broker':
      return s.state === 'offline'
        ? { fill: 'red', shape: 'ring', text: t('esp32-listener.status.brokerOffline') }
        : { fill: 'yellow', shape: 'ring', text: t('esp32-listener.status.brokerConnecting') };
    case 'listening': {
      const devices = s.devices > 0 ? t('esp32-listener.status.devices', { count: s.devices }) : t('esp32-listener.status.waiting');
      if (s.access === 'nobody')
        return unsetTokenVariables.length
          ? { fill: 'red', shape: 'ring', text: t('esp32-listener.status.tokenVariableUnset', { name: unsetTokenVariables.join(', ') }) }
          : { fill: 'red', shape: 'ring', text: t('esp32-listener.status.noToken') };
      if (s.access === 'anonymous') return { fill: 'yellow', shape: s.devices > 0 ? 'dot' : 'ring', text: t('esp32-listener.status.anonymous', { devices }) };
      return s.devices > 0 ? { fill: 'green', shape: 'dot', text: devices } : { fill: 'grey', shape: 'ring', text: devices };
    }
    default:
      return {};
  }
}

// An esp32-listener's devices that join through their OTA check (docs/esp32.md "Join a stock
// device"): the pairing book kept in Node-RED's user directory (encrypted like its credentials), the
// OTA address claimed for this listener, `pairing` messages to esp32-mcp-in, and an unpaired
// device's open connection closed at once. Settings: `answerOta` (default on) and `publicAddress`.
import { PairingBook, type PairingData, type PairingStore } from '../../src/esp32/ota/pairing-book';
import { OtaService } from '../../src/esp32/ota/ota-service';
import type { Esp32ListenerSettings } from '../../src/esp32/listener';
import type { SharedDeviceListener } from '../../src/esp32/provider/shared-listener';
import { encryptedJsonFile } from '../shared/encrypted-file';
import type { NodeDef, RED } from '../shared/red-types';
import { claimOtaAddress, underNodeRoot } from './ota-route';
import { FIRMWARE_PATH } from '../../src/esp32/ota/ota-http';
import { isFirmwareVersion } from '../../src/esp32/ota/ota-service';
import { isAbsolute, resolve } from 'node:path';
import { textSetting } from '../../src/settings-values';

const FILE_NAME = 'mcp-gemini-paired-devices.json';

export interface ListenerPairing {
  book: PairingBook;
  /** Answers the check; also on the listener's own WebSocket port when it has one. */
  service?: OtaService;
  /** The OTA address, and whether this listener answers it (or which listener does). */
  ota: { path: string; answering: boolean; takenBy?: string; off?: boolean };
  close(): void;
}

export function pairingStore(RED: RED, nodeId: string): PairingStore | undefined {
  const file = encryptedJsonFile(RED, FILE_NAME, 'mcp-gemini-paired-devices');
  if (!file) return undefined;
  return {
    load: () => file.read()[nodeId] as PairingData | undefined,
    save(data) {
      const all = file.read();
      all[nodeId] = data;
      file.write(all);
    },
  };
}

/**
 * On for listeners made in the editor (its default), off for flow JSON that does not say (flows from
 * before, and the examples, several of which may run in one Node-RED: only one can answer).
 */
export function answersOta(def: NodeDef): boolean {
  return def.answerOta === true || def.answerOta === 'true';
}

/**
 * `say`: warnings go to the debug sidebar; `log` lines only to Node-RED's log, for what is normal when
 * several examples are deployed together (their listeners all offer to answer the OTA address).
 */
export function startPairing(
  RED: RED,
  def: NodeDef,
  name: string,
  settings: Esp32ListenerSettings,
  say: { warn(m: string): void; log(m: string): void },
): ListenerPairing {
  const warn = (m: string) => say.warn(m);
  const book = new PairingBook(pairingStore(RED, def.id));
  const path = underNodeRoot(RED);
  // A broker listener (transport mqtt) has no section to hand out: the devices' broker is the user's own.
  if (!answersOta(def) || settings.transport === 'mqtt') return { book, ota: { path, answering: false, off: true }, close: () => undefined };
  const firmware = firmwareOffer(RED, def, warn);
  const service = new OtaService({
    firmware,
    firmwarePath: underNodeRoot(RED, FIRMWARE_PATH),
    transport: settings.transport,
    path: settings.path,
    port: settings.port,
    publishTopic: settings.publishTopic,
    deviceTopic: settings.deviceTopic,
    publicAddress: typeof def.publicAddress === 'string' && def.publicAddress.trim() ? def.publicAddress.trim() : undefined,
    // Shown on the device's screen with the code: "Node-RED" once, however the listener is named.
    name: /node-?red/i.test(name) ? name : `Node-RED ${name}`,
    pairing: book,
  });
  const claim = claimOtaAddress(RED, def.id, service);
  if ('takenBy' in claim) {
    // Said in the log and in this listener's dialog (Pairing): not a fault, a choice to make.
    say.log(
      `the OTA address ${path} is answered by esp32-listener ${claim.takenBy}: a stock device joins that one. To have devices join this listener, untick "Answer devices' OTA check" on ${claim.takenBy} (only one listener can answer the address)`,
    );
    return { book, service, ota: { path, answering: false, takenBy: claim.takenBy }, close: () => undefined };
  }
  return { book, service, ota: { path, answering: true }, close: () => claim.release() };
}

/** Wires the book to the listener: `pairing` events to esp32-mcp-in, and an unpaired device cut off. */
export function connectPairing(book: PairingBook, devices: SharedDeviceListener, transport: Esp32ListenerSettings['transport']): void {
  book.on('waiting', (w: { id: string; code: string; board?: string; version?: string }) => {
    devices.emit('event', {
      topic: 'pairing',
      device: { id: w.id, sessionId: '', transport },
      payload: { code: w.code, device: { id: w.id, board: w.board, version: w.version } },
    });
  });
  book.on('unpaired', (id: string) => devices.listener?.registry.get(id)?.close());
  book.on('change', () => devices.emit('change'));
}

/**
 * Offer firmware: `firmwareFile` (a path; relative to Node-RED's user directory), its version and the
 * board name it is for. A version the firmware cannot compare would crash devices: it is refused.
 */
function firmwareOffer(RED: RED, def: NodeDef, warn: (m: string) => void): { board: string; version: string; file: string } | undefined {
  const [file, version, board] = [textSetting(def.firmwareFile), textSetting(def.firmwareVersion), textSetting(def.firmwareBoard)];
  if (!file) return undefined;
  if (!version || !board || !isFirmwareVersion(version)) {
    warn('Offer firmware: set the board name and a version of numbers and dots only (e.g. 2.5.0); a device aborts on any other; nothing is offered');
    return undefined;
  }
  const userDir = typeof RED.settings.userDir === 'string' ? RED.settings.userDir : process.cwd();
  return { board, version, file: isAbsolute(file) ? file : resolve(userDir, file) };
}

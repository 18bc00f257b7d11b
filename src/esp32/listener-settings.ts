// The esp32-listener settings as the engine sees them: flow JSON and credentials normalised
// (defaults applied, numbers parsed, `${VAR:-default}` expanded) into one typed shape. Throws a
// plain Error naming the bad setting; the node shows it as the status of every user.
import { expandEnv, processEnvLookup, type EnvLookup } from '../env-expand';
import { lines, textSetting } from '../settings-values';
import { normalizeDeviceId } from './devices/device-id';
import type { Esp32Transport } from './devices/device-session';
import { DEFAULT_BIND, DEFAULT_GATEWAY_PORT, DEFAULT_PATH, type Esp32ListenerSettings, type VoiceMode } from './listener';
import { LISTENER_SETTINGS } from './listener-settings-declaration';

const TRANSPORTS: Esp32Transport[] = ['websocket', 'mqtt', 'mqtt-gateway'];
const VOICE_MODES: VoiceMode[] = ['off', 'flow', 'live', 'assist'];

export interface RawListenerConfig {
  transport?: unknown;
  path?: unknown;
  port?: unknown;
  bind?: unknown;
  anonymous?: unknown;
  allow?: unknown;
  broker?: unknown;
  publishTopic?: unknown;
  deviceTopic?: unknown;
  /** `{url, token}` in flow JSON; the editor stores `visionUrl` and the credential `visionToken`. */
  vision?: unknown;
  visionUrl?: unknown;
  voice?: unknown;
  udpHost?: unknown;
  proxyProtocol?: unknown;
  balancers?: unknown;
}

export interface ListenerCredentials {
  tokens?: string;
  username?: string;
  password?: string;
  visionToken?: string;
}

export function parseListenerSettings(raw: RawListenerConfig, creds: ListenerCredentials = {}, env: EnvLookup = processEnvLookup): Esp32ListenerSettings {
  const str = (v: unknown) => textSetting(v, env);
  const transport = (str(raw.transport) || LISTENER_SETTINGS.transport.value) as Esp32Transport;
  if (!TRANSPORTS.includes(transport)) throw new Error(`transport must be one of ${TRANSPORTS.join(', ')} (got "${transport}")`);
  const voice = (str(raw.voice) || LISTENER_SETTINGS.voice.value) as VoiceMode;
  if (!VOICE_MODES.includes(voice)) throw new Error(`voice must be one of ${VOICE_MODES.join(', ')} (got "${voice}")`);
  const settings: Esp32ListenerSettings = {
    transport,
    bind: str(raw.bind) || DEFAULT_BIND,
    // One field in the editor: tokens separated by newlines (flow JSON), commas or spaces.
    tokens: expandEnv(creds.tokens ?? '', env)
      .split(/[\s,]+/)
      .filter(Boolean),
    anonymous: raw.anonymous === true || raw.anonymous === 'true',
    allow: lines(raw.allow).map(normalizeDeviceId),
    publishTopic: str(raw.publishTopic) || undefined,
    deviceTopic: str(raw.deviceTopic) || undefined,
    vision: visionSetting(raw, creds.visionToken, str),
    voice,
  };
  const port = portSetting(str(raw.port));
  if (transport === 'websocket') {
    settings.path = str(raw.path) || DEFAULT_PATH;
    settings.port = port; // blank: Node-RED's own HTTP server
  } else if (transport === 'mqtt-gateway') {
    settings.port = port ?? DEFAULT_GATEWAY_PORT;
    settings.udpHost = udpHostSetting(str(raw.udpHost));
    settings.proxyProtocol = raw.proxyProtocol === true || raw.proxyProtocol === 'true';
    // One field in the editor: addresses separated by spaces, commas or newlines (flow JSON may give an array).
    settings.balancers = Array.isArray(raw.balancers)
      ? lines(raw.balancers)
      : str(raw.balancers)
          .split(/[\s,]+/)
          .filter(Boolean);
  } else {
    settings.broker = str(raw.broker);
    if (!settings.broker) throw new Error('the mqtt transport needs a broker URL (e.g. mqtt://homeassistant.local:1883)');
    settings.username = creds.username ? expandEnv(creds.username, env) : undefined;
    settings.password = creds.password ? expandEnv(creds.password, env) : undefined;
  }
  return settings;
}

/** A host name or IPv4/IPv6 address as the firmware resolves it: no scheme, no port, no spaces. */
function udpHostSetting(text: string): string | undefined {
  if (!text) return undefined;
  if (!/^[A-Za-z0-9.:_-]+$/.test(text) || /^[a-z]+:\/\//i.test(text))
    throw new Error(`UDP address must be a host name or IP address the devices can reach, without a scheme or port (got "${text}")`);
  return text;
}

function portSetting(text: string): number | undefined {
  if (text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`port must be a number from 1 to 65535, or blank (got "${text}")`);
  return n;
}

function visionSetting(raw: RawListenerConfig, credentialToken: string | undefined, str: (v: unknown) => string): Esp32ListenerSettings['vision'] {
  const v = raw.vision as { url?: unknown; token?: unknown } | undefined;
  const url = str(v?.url) || str(raw.visionUrl);
  if (!url) return undefined;
  const token = credentialToken || (typeof v?.token === 'string' ? v.token : undefined);
  return token ? { url, token } : { url };
}

// The esp32-listener config node's settings, declared once: the dialog's defaults
// (nodes/esp32-listener/editor.ts) and the runtime's defaults (listener.ts, listener-settings.ts)
// read this; test/settings-declared-once.test.ts checks it against the form. Its credentials are
// declared in nodes/esp32-listener/credentials.ts. Plain data: the editor bundle includes this file.

import type { ServerRow } from '../mcp/settings/server-row';

export const LISTENER_SETTINGS = {
  name: { value: '' },
  transport: { value: 'websocket', required: true },
  path: { value: '/xiaozhi/v1/' },
  port: { value: '' },
  bind: { value: '0.0.0.0' },
  udpHost: { value: '' },
  proxyProtocol: { value: false },
  balancers: { value: '' },
  anonymous: { value: false },
  allow: { value: '' },
  /** Devices joining through their OTA check (pairing by a spoken code): on for new listeners, off for listeners saved before it existed. */
  answerOta: { value: true, whenMissing: false },
  publicAddress: { value: '' },
  /** Offered firmware: one .bin for one board, its version numbers and dots (the firmware compares them with stoi). */
  firmwareFile: { value: '' },
  firmwareBoard: { value: '' },
  firmwareVersion: { value: '' },
  broker: { value: '' },
  publishTopic: { value: 'device-server' },
  deviceTopic: { value: 'devices/p2p/{mac_}' },
  visionUrl: { value: '' },
  voice: { value: 'off' },
  /** voice "live": Gemini Live's model, voice, instruction, address and the MCP servers it may call. */
  live: { value: { model: '', voice: '', systemInstruction: '', baseUrl: '', servers: [] as ServerRow[] }, form: false },
  /** voice "assist": the Home Assistant mcp-server, a pipeline id (blank: HA's preferred), language, follow-ups. */
  assist: { value: { server: '', pipeline: '', language: '', continue: true }, form: false },
} as const;

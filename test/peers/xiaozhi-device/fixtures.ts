// The firmware's tool lists and session transcripts as recorded from real devices (fixtures/ beside
// this file). Tool objects keep the firmware's key order (McpTool::to_json), which
// matters: page sizes are counted in bytes of exactly that serialization.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FirmwareTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, PropertySchema>; required?: string[] };
  annotations?: { audience?: string[] };
}

export interface PropertySchema {
  type: 'boolean' | 'integer' | 'string';
  default?: boolean | number | string;
  minimum?: number;
  maximum?: number;
}

export interface DeviceFixture {
  board: string;
  serverInfo: { name: string; version: string };
  tools: FirmwareTool[];
  pages: Record<'withUserTools=false' | 'withUserTools=true', Array<{ cursor: string; tool_names: string[]; result_bytes: number; nextCursor: string | null }>>;
}

const dir = join(__dirname, 'fixtures');

function load(file: string): DeviceFixture {
  const raw = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  return { board: raw._device.board, serverInfo: raw._device.serverInfo, tools: raw.tools, pages: raw._pagination.pages };
}

/** otto-robot with a camera: 13 AI tools over two pages, 7 user-only tools. */
export const ottoRobot = (): DeviceFixture => load('device-tools.json');
/** lichuang-dev: 7 AI tools on one page. */
export const lichuangDev = (): DeviceFixture => load('device-tools-lichuang-dev.json');

export interface TranscriptFrame {
  seq: number;
  dir: string;
  kind: string;
  raw?: string;
  json?: any;
  headers?: Array<[string, string]>;
  synthetic?: boolean;
}

export function wsTranscript(): { session_id: string; device_id: string; client_id: string; frames: TranscriptFrame[] } {
  return JSON.parse(readFileSync(join(dir, 'session-transcript.json'), 'utf8'));
}

export function mqttTranscript(): { session_id: string; device_id: string; frames: TranscriptFrame[] } {
  return JSON.parse(readFileSync(join(dir, 'session-transcript-mqtt.json'), 'utf8'));
}

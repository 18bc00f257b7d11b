// The tool lists every schema-compiler test runs over: real wire data from the shared fixtures, the
// live list of the official server-everything, and our adversarial corpus.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ADVERSARIAL_TOOLS } from './adversarial-corpus';

// Wire data recorded from Home Assistant and the xiaozhi firmware, kept with the test peers
// (test/peers/{home-assistant,xiaozhi-device}/fixtures/).
const PEERS = path.resolve(__dirname, '../peers');

function readJson(file: string): any {
  return JSON.parse(readFileSync(path.join(PEERS, file), 'utf8'));
}

/** HA's fixture is a JSON-RPC response; keys starting with "_" are provenance notes, not wire data. */
export function homeAssistantTools(): Tool[] {
  return readJson('home-assistant/fixtures/tools-list.json').result.tools;
}

/** xiaozhi fixtures hold the device's tool array (ai tools and user-only tools) under `tools`. */
export function xiaozhiTools(file: 'device-tools.json' | 'device-tools-lichuang-dev.json'): Tool[] {
  return readJson(`xiaozhi-device/fixtures/${file}`).tools;
}

/** Starts @modelcontextprotocol/server-everything over stdio, lists its tools and stops it. */
export async function everythingTools(): Promise<Tool[]> {
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry, 'stdio'], stderr: 'ignore' });
  const client = new Client({ name: 'schema-compiler-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor || undefined;
    } while (cursor);
    return tools;
  } finally {
    await client.close();
  }
}

export interface Corpus {
  name: string;
  tools: Tool[];
}

export function staticCorpora(): Corpus[] {
  return [
    { name: 'home-assistant', tools: homeAssistantTools() },
    { name: 'xiaozhi otto', tools: xiaozhiTools('device-tools.json') },
    { name: 'xiaozhi lichuang-dev', tools: xiaozhiTools('device-tools-lichuang-dev.json') },
    { name: 'adversarial', tools: ADVERSARIAL_TOOLS },
  ];
}

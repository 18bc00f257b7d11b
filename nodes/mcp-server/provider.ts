// What an mcp-server config node serves its users through: an MCP session (its log lines going to
// the node's log), or for transport "esp32" the devices of the esp32-listener config node it names.
import { McpSession } from '../../src/mcp/session';
import type { McpServerSettings } from '../../src/mcp/settings/settings';
import type { ToolProvider } from '../../src/mcp/call/tool-provider';
import { getListenerNode } from '../esp32-listener/listener-config';
import type { Node, RED } from '../shared/red-types';

export function createProvider(RED: RED, settings: McpServerSettings, node: Node): ToolProvider {
  if (settings.transport === 'esp32') {
    // Loaded on demand: only flows with ESP32 devices need the device engine.
    const { createEsp32ToolProvider } = require('../../src/esp32/provider/esp32-tool-provider');
    return createEsp32ToolProvider({
      id: settings.id,
      name: settings.name || settings.id,
      source: getListenerNode(RED, settings.listener)?.devices,
      deviceId: settings.deviceId,
      timeoutMs: settings.timeoutMs,
    }) as ToolProvider;
  }
  return new McpSession(settings, {
    debug: (m) => node.debug(m),
    warn: (m) => node.warn(m),
    info: (m) => node.log(m),
  });
}

/** Every string in the `secrets` credential, even when it is not valid JSON: all of it is secret. */
export function secretCredentialValues(raw: unknown): string[] {
  if (typeof raw !== 'string' || !raw.trim()) return [];
  try {
    const parsed = JSON.parse(raw) as Record<string, Record<string, unknown>>;
    return Object.values(parsed ?? {}).flatMap((group) => Object.values(group ?? {}).map(String));
  } catch {
    return [raw];
  }
}

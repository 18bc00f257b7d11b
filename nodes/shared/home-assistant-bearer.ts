// Which Home Assistant a listener's "assist" voice, the ha-assist node and their dialogs' pipeline lists talk to: the
// deployed mcp-server named in the settings gives its MCP URL and bearer (its token, the add-on's,
// or its OAuth sign-in); neither leaves the runtime.
import { HomeAssistantUnavailable } from '../../src/home-assistant/connection';
import type { HomeAssistantBearer } from '../../src/home-assistant/bearer-link';
import { getServerNode } from './server-config';
import type { RED } from './red-types';

export function homeAssistantBearer(RED: RED, serverId: string): HomeAssistantBearer {
  return () => {
    const server = getServerNode(RED, serverId);
    if (!server) throw new HomeAssistantUnavailable(`the Home Assistant mcp-server ${serverId} is not deployed`);
    const access = server.bearerAccess?.();
    if (!access) throw new HomeAssistantUnavailable(`the mcp-server "${server.displayName}" has no URL: Assist needs Home Assistant's MCP URL (…/api/mcp)`);
    return access;
  };
}

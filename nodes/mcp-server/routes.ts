// The admin routes under /mcp-server/: tool lists and Test connection (tools-routes.ts), a server's
// prompts and resources (prompts-resources-routes.ts), OAuth sign-in (oauth-routes.ts), a Home
// Assistant's LLM APIs (home-assistant-routes.ts), Server Cards (server-card-routes.ts).
import { oncePerAdminApp } from '../shared/admin-routes';
import type { RED } from '../shared/red-types';
import { registerHomeAssistantRoutes } from './home-assistant-routes';
import { registerServerCardRoutes } from './server-card-routes';
import { registerOAuthRoutes } from './oauth-routes';
import { registerPromptResourceRoutes } from './prompts-resources-routes';
import { registerServerToolRoutes } from './tools-routes';

export function registerServerRoutes(RED: RED): void {
  oncePerAdminApp(RED, 'mcp-server', () => {
    registerServerToolRoutes(RED); //        /mcp-server/:id/tools, /mcp-server/test, /mcp-server/tools
    registerPromptResourceRoutes(RED); //    /mcp-server/:id/prompts, /mcp-server/:id/resources
    registerOAuthRoutes(RED); //             /mcp-server/oauth/…
    registerHomeAssistantRoutes(RED); //     /mcp-server/home-assistant/apis
    registerServerCardRoutes(RED); //        /mcp-server/server-card
  });
}

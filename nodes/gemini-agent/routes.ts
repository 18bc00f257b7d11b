// The admin routes under /gemini-agent/: the dialog's Test prompt and its server-row previews.
import { oncePerAdminApp } from '../shared/admin-routes';
import type { RED } from '../shared/red-types';
import { registerGeminiTestRoute } from './test-route';
import { registerGeminiToolsRoute } from './tools-route';

export function registerAgentRoutes(RED: RED): void {
  oncePerAdminApp(RED, 'gemini-agent', () => {
    registerGeminiTestRoute(RED); //   /gemini-agent/test
    registerGeminiToolsRoute(RED); //  /gemini-agent/tools
  });
}

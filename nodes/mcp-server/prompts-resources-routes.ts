// Admin HTTP routes behind the mcp-prompt and mcp-resource dialogs' dropdowns (permissioned like
// GET /mcp-server/:id/tools beside them):
//   GET /mcp-server/:id/prompts    {server, prompts:[{name, title, description, arguments}]}
//   GET /mcp-server/:id/resources  {server, resources:[…], resourceTemplates:[…]}
// A server that has no resources (or no templates) answers an empty list for that part, not an error.
import { errorMessage } from '../../src/errors';
import { promptsAndResources } from '../../src/mcp/prompts-resources';
import type { RED } from '../shared/red-types';
import { getServerNode } from '../shared/server-config';

const NOT_DEPLOYED = 'mcp-server not deployed: deploy the flow first';

export function registerPromptResourceRoutes(RED: RED): void {
  RED.httpAdmin.get('/mcp-server/:id/prompts', RED.auth.needsPermission('mcp-server.read'), async (req, res) => {
    const server = getServerNode(RED, req.params.id);
    if (!server) return res.status(404).json({ error: NOT_DEPLOYED });
    try {
      const { prompts } = await promptsAndResources(server.provider).listPrompts();
      res.json({ server: server.provider.identity(), prompts });
    } catch (err) {
      res.status(502).json({ error: errorMessage(err) });
    }
  });

  RED.httpAdmin.get('/mcp-server/:id/resources', RED.auth.needsPermission('mcp-server.read'), async (req, res) => {
    const server = getServerNode(RED, req.params.id);
    if (!server) return res.status(404).json({ error: NOT_DEPLOYED });
    try {
      const features = promptsAndResources(server.provider);
      const [resources, templates] = await Promise.all([features.listResources(), features.listResourceTemplates().catch(() => ({ resourceTemplates: [] }))]);
      res.json({ server: server.provider.identity(), resources: resources.resources, resourceTemplates: templates.resourceTemplates });
    } catch (err) {
      res.status(502).json({ error: errorMessage(err) });
    }
  });
}

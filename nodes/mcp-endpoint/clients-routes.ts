// Admin HTTP routes the mcp-endpoint dialog uses for sign-in (permissioned like core's nodes):
//   GET  /mcp-endpoint/:id/clients                      {pending: [...], approved: [...]}
//   POST /mcp-endpoint/:id/clients/:request/approve     {code}: the code the sign-in page shows
//   POST /mcp-endpoint/:id/clients/:request/deny        {code}
//   POST /mcp-endpoint/:id/clients/:client/revoke       its tokens stop working at once
// Approval happens only here, by POST from the editor (Node-RED's admin auth and its CSRF rules),
// never by a GET and never on the sign-in page itself.
import { oncePerAdminApp } from '../shared/admin-routes';
import type { RED } from '../shared/red-types';
import { signIns } from './sign-in';

export function registerClientRoutes(RED: RED): void {
  oncePerAdminApp(RED, 'mcp-endpoint-clients', () => {
    const notOn = { error: 'this endpoint is not deployed with sign-in on' };
    RED.httpAdmin.get('/mcp-endpoint/:id/clients', RED.auth.needsPermission('mcp-endpoint.read'), (req, res) => {
      const attached = signIns.get(String(req.params.id));
      if (!attached) return res.status(404).json(notOn);
      res.json(attached.approvals.list());
    });
    for (const decision of ['approve', 'deny'] as const) {
      RED.httpAdmin.post(`/mcp-endpoint/:id/clients/:request/${decision}`, RED.auth.needsPermission('mcp-endpoint.write'), (req, res) => {
        const attached = signIns.get(String(req.params.id));
        if (!attached) return res.status(404).json(notOn);
        const outcome = attached.approvals.decide(String(req.params.request), req.body?.code, decision === 'approve' ? 'approved' : 'denied');
        if (!outcome.ok) return res.status(outcome.status).json({ error: outcome.message });
        res.json({ request: req.params.request, decision: decision === 'approve' ? 'approved' : 'denied' });
      });
    }
    RED.httpAdmin.post('/mcp-endpoint/:id/clients/:client/revoke', RED.auth.needsPermission('mcp-endpoint.write'), (req, res) => {
      const attached = signIns.get(String(req.params.id));
      if (!attached) return res.status(404).json(notOn);
      const client = String(req.params.client);
      if (!attached.signIn.revoke(client)) return res.status(404).json({ error: `no approved client ${client}` });
      res.json({ client, revoked: true });
    });
  });
}

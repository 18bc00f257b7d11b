// The endpoint's write tools as the editor sees them: one ChangeBook per endpoint node, kept for the
// life of the Node-RED process (a deploy that restarts the endpoint keeps its record and its
// snapshots) and in a file in Node-RED's user directory, encrypted with its credential secret as
// flows_cred.json is (a restart keeps them too; flows may hold a pasted secret), a notification in
// every open editor when a deploy waits for a person, and the admin
// routes the endpoint's dialog uses (permissioned like core's nodes; decisions only by POST):
//   GET  /mcp-endpoint/:id/changes                     {pending: [...], record: [...]}
//   POST /mcp-endpoint/:id/changes/:change/approve     deploys it now
//   POST /mcp-endpoint/:id/changes/:change/deny
//   POST /mcp-endpoint/:id/changes/rollback            {change?}: restores the flows before it
import { ChangeBook, type ChangeBookState, type ChangeRecord } from '../../src/server/node-red/change-book';
import { encryptedJsonFile } from '../shared/encrypted-file';
import { NodeRedChanges, type ChangePolicy } from '../../src/server/node-red/write-tools';
import type { NodeRedRuntime, NodeRedView } from '../../src/server/node-red/types';
import { secrets } from '../../src/secrets';
import { errorMessage } from '../../src/errors';
import { oncePerAdminApp } from '../shared/admin-routes';
import type { RED } from '../shared/red-types';

const books = new Map<string, ChangeBook>();
const live = new Map<string, NodeRedChanges>();

/** The write tools of one endpoint; close() when the endpoint closes (its book stays). */
export function assistantChanges(
  RED: RED,
  endpoint: { id: string; label: string },
  runtime: NodeRedRuntime,
  view: NodeRedView,
  policy: Omit<ChangePolicy, 'self'>,
): { changes: NodeRedChanges; close(): void } {
  const announced = new Set<string>();
  let book = books.get(endpoint.id);
  if (!book) {
    const file = encryptedJsonFile(RED, `mcp-endpoint-${endpoint.id}-changes.json`, 'assistant-changes');
    book = new ChangeBook(
      () => {
        try {
          file?.write(book!.state() as unknown as Record<string, unknown>);
        } catch (err) {
          RED.log.warn(`mcp-endpoint ${endpoint.label}: could not keep the record of changes: ${errorMessage(err)}`);
        }
        const kept = book!.list();
        // Bounded as the book is: only ids it still holds are remembered.
        for (const id of announced) if (!kept.some((r) => r.id === id)) announced.delete(id);
        for (const r of kept)
          if (r.state === 'waiting' && !announced.has(r.id)) {
            announced.add(r.id);
            RED.comms.publish(
              `notification/mcp-endpoint-change-${r.id}`,
              {
                type: 'warning',
                timeout: 20_000,
                // No colon: the editor reads a notification's text as a translation key, and a colon there starts a namespace.
                text: `${r.client} asks to deploy change ${r.id} through ${endpoint.label}. Open the endpoint's dialog to approve or deny it.`,
              },
              false,
            );
          }
      },
      file?.read() as Partial<ChangeBookState> | undefined,
    );
    books.set(endpoint.id, book);
  }
  const changes = new NodeRedChanges(runtime, view, book, { ...policy, self: endpoint.id }, (v) => secrets.scrubValue(v));
  live.set(endpoint.id, changes);
  return {
    changes,
    close() {
      if (live.get(endpoint.id) === changes) live.delete(endpoint.id);
    },
  };
}

/** What the dialog shows of a record: never the snapshot. */
const shown = (r: ChangeRecord) => ({
  id: r.id,
  client: r.client,
  at: r.at,
  state: r.state,
  lines: r.lines,
  decidedBy: r.decidedBy,
  decidedAt: r.decidedAt,
  reason: r.reason,
  rollback: r.state === 'deployed' && Boolean(r.snapshot),
});

export function registerChangeRoutes(RED: RED): void {
  oncePerAdminApp(RED, 'mcp-endpoint-changes', () => {
    const notOn = { error: 'this endpoint is not deployed with changes allowed' };
    // Without adminAuth there is no user name: just the editor.
    const who = (req: { user?: { username?: string } }) => (req.user?.username ? `editor: ${req.user.username}` : 'editor');
    RED.httpAdmin.get('/mcp-endpoint/:id/changes', RED.auth.needsPermission('mcp-endpoint.read'), (req, res) => {
      const changes = live.get(String(req.params.id));
      if (!changes) return res.status(404).json(notOn);
      const all = changes.book.list();
      res.json(secrets.scrubValue({ pending: all.filter((r) => r.state === 'waiting').map(shown), record: all.map(shown) }));
    });
    for (const decision of ['approve', 'deny'] as const) {
      RED.httpAdmin.post(`/mcp-endpoint/:id/changes/:change/${decision}`, RED.auth.needsPermission('mcp-endpoint.write'), async (req, res) => {
        const changes = live.get(String(req.params.id));
        if (!changes) return res.status(404).json(notOn);
        try {
          const record = await changes.decide(
            String(req.params.change),
            decision === 'approve',
            who(req),
            decision === 'deny' ? 'denied in the editor' : undefined,
          );
          res.json(shown(record));
        } catch (err) {
          res.status(409).json({ error: secrets.scrub(errorMessage(err)) });
        }
      });
    }
    RED.httpAdmin.post('/mcp-endpoint/:id/changes/rollback', RED.auth.needsPermission('mcp-endpoint.write'), async (req, res) => {
      const changes = live.get(String(req.params.id));
      if (!changes) return res.status(404).json(notOn);
      try {
        const wanted = typeof req.body?.change === 'string' && req.body.change ? req.body.change : undefined;
        res.json(await changes.rollback(wanted, who(req)));
      } catch (err) {
        res.status(409).json({ error: secrets.scrub(errorMessage(err)) });
      }
    });
  });
}

// The MCP server of bench/peers.ts, in a process of its own: the paginated test peer (stateless
// Streamable HTTP, JSON replies; event-stream replies with BENCH_SSE_REPLIES=1), its URL sent to the
// parent once it listens.
import { startPaginatedServer } from '../test/peers/paginated-server';

void startPaginatedServer({ toolCount: 3, pageSize: 10, sseReplies: process.env.BENCH_SSE_REPLIES === '1' }).then((server) => {
  process.send!({ url: server.url });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
});

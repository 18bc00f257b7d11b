// The OTA address a stock xiaozhi device is given (`http://<node-red>:1880/xiaozhi/ota/`, under
// httpNodeRoot), on Node-RED's own HTTP app (src/esp32/ota/ota-http.ts answers it). One listener answers
// it; a second one that asks is refused and says so. Routes are added to Node-RED's HTTP app once and
// look up the listener that answers now, so a redeploy moves the address without leaving a route behind.
// Where nothing the user configured guards httpNode, the address is also answered ahead of Express
// (../shared/ahead-of-express.ts): with httpAdminRoot "/" (the default, and the add-on's) the
// editor's JSON parser would read the check first, and the firmware's body is not always JSON (it
// does not escape a quote in a Wi-Fi name): that parser's 400 page would keep such a device out.
import { FIRMWARE_PATH, OTA_PATH, handleOtaHttp } from '../../src/esp32/ota/ota-http';
import type { OtaService } from '../../src/esp32/ota/ota-service';
import type { RED } from '../shared/red-types';
import { answerAheadOfExpress } from '../shared/ahead-of-express';

interface Claim {
  nodeId: string;
  service: OtaService;
}

const claims = new WeakMap<object, Claim>(); // by RED.httpNode
const routed = new WeakSet<object>();

/** Answers the OTA address for `nodeId`; returns a release function, or the id of the listener that answers it already. */
export function claimOtaAddress(RED: RED, nodeId: string, service: OtaService): { release(): void } | { takenBy: string } {
  const app = RED.httpNode as unknown as object;
  const current = claims.get(app);
  if (current && current.nodeId !== nodeId) return { takenBy: current.nodeId };
  claims.set(app, { nodeId, service });
  addRoutesOnce(RED);
  const prefix = underNodeRoot(RED, '');
  const direct = [OTA_PATH, OTA_PATH + 'activate', FIRMWARE_PATH].map((path) =>
    answerAheadOfExpress(RED, prefix + path, (req, res) => {
      // handleOtaHttp reads paths below httpNodeRoot, as Express would hand them on.
      req.url = (req.url ?? '/').slice(prefix.length) || '/';
      if (!handleOtaHttp(service, req, res)) res.writeHead(404).end();
    }),
  );
  return {
    release() {
      for (const stop of direct) stop?.();
      if (claims.get(app)?.nodeId === nodeId) claims.delete(app);
    },
  };
}

/** `path` under Node-RED's httpNodeRoot: the OTA address devices are given, and its firmware file. */
export function underNodeRoot(RED: RED, path: string = OTA_PATH): string {
  const root = typeof RED.settings.httpNodeRoot === 'string' && RED.settings.httpNodeRoot ? RED.settings.httpNodeRoot : '/';
  return (root.endsWith('/') ? root.slice(0, -1) : root) + path;
}

function addRoutesOnce(RED: RED): void {
  const app = RED.httpNode as unknown as object;
  if (routed.has(app)) return;
  routed.add(app);
  const serve = (req: Parameters<typeof handleOtaHttp>[1], res: Parameters<typeof handleOtaHttp>[2]) => {
    handleOtaHttp(claims.get(app)?.service, req, res);
  };
  RED.httpNode.get(OTA_PATH, serve);
  RED.httpNode.post(OTA_PATH, serve);
  RED.httpNode.post(OTA_PATH + 'activate', serve);
  RED.httpNode.get(FIRMWARE_PATH, serve);
}

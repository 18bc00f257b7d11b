// The OTA address a stock xiaozhi device is given (`http://<node-red>:1880/xiaozhi/ota/`, under
// httpNodeRoot), on Node-RED's own HTTP app (src/esp32/ota-http.ts answers it). One listener answers
// it; a second one that asks is refused and says so. Routes are added to Node-RED's HTTP app once and
// look up the listener that answers now, so a redeploy moves the address without leaving a route behind.
import { FIRMWARE_PATH, OTA_PATH, handleOtaHttp } from '../../src/esp32/ota-http';
import type { OtaService } from '../../src/esp32/ota-service';
import type { RED } from '../shared/red-types';

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
  return {
    release() {
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

// Admin HTTP route the esp32-listener dialog uses (namespaced and permissioned like core's nodes):
//   GET /esp32-listener/:id/devices   the devices a deployed listener has connected right now
// Tokens never leave the runtime: the answer holds device facts only.
import { isUserOnlyTool } from '../../src/esp32/device-session';
import { getListenerNode, listenerStatus } from './listener-config';
import { translator } from '../shared/i18n';
import type { RED } from '../shared/red-types';

export function registerEsp32DeviceRoutes(RED: RED): void {
  const t = translator(RED, 'esp32-listener');

  RED.httpAdmin.get('/esp32-listener/:id/devices', RED.auth.needsPermission('esp32-listener.read'), (req, res) => {
    const node = getListenerNode(RED, String(req.params.id));
    if (!node) return res.status(404).json({ error: t('esp32-listener.errors.notDeployed') });
    const listener = node.devices.listener;
    res.json({
      status: listenerStatus(RED, node.devices.status()),
      transport: listener?.transport,
      port: listener?.port,
      devices: (listener?.registry.list() ?? []).map((s) => ({
        ...s.info(),
        state: s.state,
        toolCount: s.tools.filter((tool) => !isUserOnlyTool(tool)).length,
        userToolCount: s.tools.filter(isUserOnlyTool).length,
      })),
    });
  });
}

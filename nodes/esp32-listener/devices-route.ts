// Admin HTTP routes the esp32-listener dialog uses (namespaced and permissioned like core's nodes):
//   GET  /esp32-listener/:id/devices   the devices a deployed listener has connected right now
//   GET  /esp32-listener/:id/pairing   devices waiting with their codes, paired devices, the OTA address
//   POST /esp32-listener/:id/pair      {code} → {device}; 404 for an unknown or expired code
//   POST /esp32-listener/:id/unpair    {device} → {device}; its token stops working, its connection closes
// Tokens never leave the runtime: the answers hold device facts only.
import { isUserOnlyTool } from '../../src/esp32/devices/device-session';
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

  const pairingOf = (id: unknown) => getListenerNode(RED, String(id))?.pairing;

  RED.httpAdmin.get('/esp32-listener/:id/pairing', RED.auth.needsPermission('esp32-listener.read'), (req, res) => {
    const pairing = pairingOf(req.params.id);
    if (!pairing) return res.status(404).json({ error: t('esp32-listener.errors.notDeployed') });
    res.json({ ota: pairing.ota, ...pairing.book.list() });
  });

  RED.httpAdmin.post('/esp32-listener/:id/pair', RED.auth.needsPermission('esp32-listener.write'), (req, res) => {
    const pairing = pairingOf(req.params.id);
    if (!pairing) return res.status(404).json({ error: t('esp32-listener.errors.notDeployed') });
    const code: unknown = req.body?.code;
    // Only text or a number is a code; anything else is the caller's mistake, said in JSON.
    if (typeof code !== 'string' && typeof code !== 'number') return res.status(400).json({ error: t('esp32-listener.errors.codeNotText') });
    const device = pairing.book.pair(String(code));
    // The same answer for a wrong, expired or used code: nothing to learn from it.
    if (!device) return res.status(404).json({ error: t('esp32-listener.errors.unknownCode') });
    const { token: _token, ...facts } = device;
    res.json({ device: facts });
  });

  RED.httpAdmin.post('/esp32-listener/:id/unpair', RED.auth.needsPermission('esp32-listener.write'), (req, res) => {
    const pairing = pairingOf(req.params.id);
    if (!pairing) return res.status(404).json({ error: t('esp32-listener.errors.notDeployed') });
    const given: unknown = req.body?.device;
    if (typeof given !== 'string') return res.status(400).json({ error: t('esp32-listener.errors.deviceNotText') });
    const id = given;
    if (!pairing.book.unpair(id)) return res.status(404).json({ error: t('esp32-listener.errors.notPaired', { device: id }) });
    res.json({ device: { id } });
  });
}

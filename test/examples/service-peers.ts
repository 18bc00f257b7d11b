// The outside services the example flows reach, as test peers: the Home Assistant stand-in and the
// fake Gemini together with the environment the flows read to find them (`${HA_URL}`, `${HA_TOKEN}`,
// `${GEMINI_API_KEY}`, `${GEMINI_BASE_URL}`), and a simulated xiaozhi device dialling in to Node-RED.
import { startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { ottoRobot, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { assertCleanDeploy, readExample, startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';

export const OTTO_ID = 'd8:3b:da:4e:21:7c';

export interface ServicePeers {
  ha: HomeAssistantStandIn;
  gemini: FakeGemini;
  /** What to give the Node-RED process so the examples' `${…}` settings point at these peers. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The Home Assistant stand-in of `generation` (default: before 2026.9) and the fake Gemini. */
export async function startServicePeers(generation?: HaGeneration): Promise<ServicePeers> {
  const ha = await startHomeAssistant({ assist: true, generation });
  const gemini = await startFakeGemini();
  return {
    ha,
    gemini,
    env: { HA_URL: new URL(ha.url).origin, HA_TOKEN: ha.token, GEMINI_API_KEY: gemini.apiKey, GEMINI_BASE_URL: gemini.url },
    async close() {
      await gemini.close();
      await ha.close();
    },
  };
}

/** The token a user types into an example's esp32-listener, and into the device's OTA settings. */
export const DEVICE_TOKEN = 'example-device-token';

/** An example flow as a user deploys it after following its comment: the listener's Tokens filled in. */
export function withDeviceToken(flow: FlowNode[]): FlowNode[] {
  return flow.map((n) => (n.type === 'esp32-listener' ? { ...n, credentials: { tokens: DEVICE_TOKEN } } : n));
}

/**
 * The otto-robot simulator connecting over WebSocket at `path` of Node-RED's own server, with the
 * token as the firmware sends it. The listener is attached once the flow has started, so the first
 * connection is retried briefly.
 */
export async function dialInDevice(nr: NodeRedProcess, path: string): Promise<XiaozhiWsDevice> {
  const url = `${nr.url.replace('http', 'ws')}${path}`;
  for (let attempt = 0; ; attempt++) {
    try {
      return await XiaozhiWsDevice.connect({ url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    } catch (err) {
      if (attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * The common frame of an example spec: the HA stand-in and fake Gemini, a real Node-RED with their
 * environment, the example deployed, and the "deploys cleanly" check; torn down after the suite.
 */
export function useDeployedExample(
  name: string,
  generation?: HaGeneration,
): { readonly flow: FlowNode[]; readonly nr: NodeRedProcess; readonly peers: ServicePeers } {
  const state = { flow: readExample(name) } as { flow: FlowNode[]; nr: NodeRedProcess; peers: ServicePeers };
  before(async () => {
    state.peers = await startServicePeers(generation);
    state.nr = await startNodeRed({ env: state.peers.env });
    await state.nr.deploy(state.flow);
  });
  after(async () => {
    await state.nr?.stop();
    await state.peers?.close();
  });
  it('deploys without errors or unknown node types', async () => {
    await assertCleanDeploy(state.nr, state.flow);
  });
  return state;
}

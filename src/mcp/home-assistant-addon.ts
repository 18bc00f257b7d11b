// Where an MCP client reaches Home Assistant from inside a Home Assistant add-on (Node-RED's add-on
// among them): the Supervisor proxies Home Assistant's API at http://supervisor/core/api/ and accepts
// the add-on's own token, which the Supervisor puts in the add-on's environment as SUPERVISOR_TOKEN
// (add-ons with `homeassistant_api: true`, which the Node-RED add-on has). Home Assistant's MCP Server
// integration serves /api/mcp. The token stays a `${…}` reference, expanded when the server connects,
// so no secret is ever copied into the flow.
export const HOME_ASSISTANT_ADDON = {
  url: 'http://supervisor/core/api/mcp',
  token: '${SUPERVISOR_TOKEN}',
} as const;

/** Home Assistant on the network, as the "Home Assistant URL" button fills it when the URL is blank. */
export const HOME_ASSISTANT_DEFAULT_URL = 'http://homeassistant.local:8123/api/mcp';

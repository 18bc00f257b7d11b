// What the mcp-server dialog's "Home Assistant URL" button makes of what a person types. A bare host
// name or address used to become `homeassistant.local/api/mcp`, which is no URL at all.
import assert from 'node:assert/strict';
import { homeAssistantMcpUrl, HOME_ASSISTANT_ADDON, HOME_ASSISTANT_DEFAULT_URL } from '../../src/mcp/home-assistant-addon';

describe('Home Assistant URL preset', () => {
  const cases: Array<[string, string]> = [
    ['homeassistant.local', 'http://homeassistant.local:8123/api/mcp'],
    ['192.168.1.20', 'http://192.168.1.20:8123/api/mcp'],
    ['  192.168.1.20/  ', 'http://192.168.1.20:8123/api/mcp'],
    ['homeassistant.local:8123', 'http://homeassistant.local:8123/api/mcp'],
    ['http://homeassistant.local:8123', 'http://homeassistant.local:8123/api/mcp'],
    ['https://ha.example.com', 'https://ha.example.com/api/mcp'],
    ['https://ha.example.com/api/mcp', 'https://ha.example.com/api/mcp'],
    ['https://example.com/homeassistant/', 'https://example.com/homeassistant/api/mcp'],
    ['${HA_URL}', '${HA_URL}/api/mcp'],
    ['${HA_URL:-http://homeassistant.local:8123}/api/mcp', '${HA_URL:-http://homeassistant.local:8123}/api/mcp'],
    ['', HOME_ASSISTANT_DEFAULT_URL],
    [HOME_ASSISTANT_ADDON.url, HOME_ASSISTANT_DEFAULT_URL],
  ];
  for (const [typed, expected] of cases) {
    it(`${JSON.stringify(typed)} becomes ${expected}`, () => assert.equal(homeAssistantMcpUrl(typed), expected));
  }
});

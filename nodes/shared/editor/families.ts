// The palette look of each family of nodes, as core colours its nodes by protocol: MCP nodes blue,
// the Gemini agent violet, the ESP32 device nodes amber, the Home Assistant node HA's blue. Each family
// is a palette category of its own (MCP, Gemini, devices, home assistant), so a person scanning
// the palette finds what they came for by name.
export const MCP_FAMILY = { category: 'MCP', color: '#8FB9E3' } as const;
export const GEMINI_FAMILY = { category: 'Gemini', color: '#C3B1E1' } as const;
export const ESP32_FAMILY = { category: 'devices', color: '#E7C27D' } as const;
// Home Assistant's own blue, for the node that talks to its Assist: searching the palette for "home"
// or "assistant" finds it.
export const HOME_ASSISTANT_FAMILY = { category: 'home assistant', color: '#6CC4F0' } as const;

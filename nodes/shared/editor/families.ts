// The palette look of each family of nodes, as core colours its nodes by protocol: MCP nodes blue,
// the Gemini agent violet, the ESP32 device nodes amber. All stay in the one "MCP" category, so a
// user finds every node of this package in one place.
export const MCP_FAMILY = { category: 'MCP', color: '#8FB9E3' } as const;
export const GEMINI_FAMILY = { category: 'MCP', color: '#C3B1E1' } as const;
export const ESP32_FAMILY = { category: 'MCP', color: '#E7C27D' } as const;

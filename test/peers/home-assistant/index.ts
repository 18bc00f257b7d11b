export { startHomeAssistant, DEFAULT_HA_TOKEN } from './server';
export type { HomeAssistantOptions, HomeAssistantStandIn, RecordedRequest } from './server';
export { haTools, haCallExamples } from './fixtures';
export type { HaTool, HaCallExample, HaCallResult } from './fixtures';

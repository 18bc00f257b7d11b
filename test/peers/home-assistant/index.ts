export { startHomeAssistant, DEFAULT_HA_TOKEN } from './server';
export type { HomeAssistantOptions, HomeAssistantStandIn, RecordedRequest } from './server';
export { haTools, haCallExamples, haFixtures, haToolName, HA_GENERATIONS } from './fixtures';
export type { HaTool, HaCallExample, HaCallResult, HaGeneration, HaFixtureSet } from './fixtures';

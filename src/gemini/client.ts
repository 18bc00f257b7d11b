// One place that builds the @google/genai client. The API version is always sent explicitly: the
// SDK's default moved from v1beta (1.x/2.x) to v1 (3.x), and v1 has refused fields we send.
import { GoogleGenAI } from '@google/genai';
import { processEnvLookup, type EnvLookup } from '../env-expand';
import { McpNodeError } from '../errors';
import { AGENT_SETTINGS } from './agent-settings-declaration';

export const DEFAULT_MODEL = AGENT_SETTINGS.model.value;
export const DEFAULT_API_VERSION = AGENT_SETTINGS.apiVersion.value;
export const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export interface GeminiClientOptions {
  apiKey: string;
  baseUrl?: string;
  apiVersion?: string;
}

/** The configured key, else GEMINI_API_KEY / GOOGLE_API_KEY from the environment (GOOGLE wins, as in the SDK). */
export function resolveApiKey(configured: string | undefined, env: EnvLookup = processEnvLookup): string {
  const key = (configured ?? '').trim() || env('GOOGLE_API_KEY') || env('GEMINI_API_KEY') || '';
  if (!key) {
    throw new McpNodeError(
      "No Gemini API key. Create one at https://aistudio.google.com/apikey, then paste it into the node's API key field, or set GEMINI_API_KEY in the tab's Environment variables (double-click the tab; on the Home Assistant add-on this is the place) or in Node-RED's environment.",
      'no API key',
      'GEMINI_NO_KEY',
    );
  }
  return key;
}

export function createGeminiClient(options: GeminiClientOptions): GoogleGenAI {
  const apiVersion = options.apiVersion || DEFAULT_API_VERSION;
  return new GoogleGenAI({
    apiKey: options.apiKey,
    apiVersion,
    httpOptions: { baseUrl: options.baseUrl || DEFAULT_BASE_URL, apiVersion },
  });
}

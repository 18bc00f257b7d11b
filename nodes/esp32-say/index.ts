// esp32-say: speaks msg.payload to a xiaozhi device through its esp32-listener: text via Gemini TTS,
// or audio (WAV / PCM with msg.sampleRate); msg.display goes to the screen. One message leaves when
// playback ends, `{durationMs, aborted}`. It is a user of the listener like esp32-mcp-in: it
// registers (so it shows the listener's status, and a flow with esp32-say alone opens the listener).
import { McpNodeError } from '../../src/errors';
import { expandEnv } from '../../src/env-expand';
import { nodeEnvLookup } from '../shared/node-env';
import { createGeminiClient, resolveApiKey, DEFAULT_API_VERSION, DEFAULT_BASE_URL } from '../../src/gemini/client';
import { synthesizeSpeech, DEFAULT_TTS_MODEL, DEFAULT_TTS_VOICE } from '../../src/gemini/tts';
import { SpeechInputError, speechInput, type DeviceConversations } from '../../src/voice/device-conversations';
import { getListenerNode } from '../esp32-listener/listener-config';
import type { SpeechSynthesizer } from '../../src/voice/conversation';
import { handleInput } from '../shared/input-handler';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { translator } from '../shared/i18n';
import { deployedSettings } from '../../src/settings-declaration';
import { CREDENTIALS, SETTINGS } from './settings';

export = function register(RED: RED) {
  const t = translator(RED, 'esp32-say');
  function Esp32SayNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    // ${VAR} and the API key resolve as Node-RED resolves them: the node's, the tab's, the global
    // and then the process environment (the add-on has only the tab's).
    const env = nodeEnvLookup(RED, node);
    const settings = deployedSettings(def, SETTINGS, env);
    const tts = settings.tts as { provider?: string; model?: string; voice?: string };
    const model = expandEnv(String(tts.model || ''), env).trim() || DEFAULT_TTS_MODEL;
    const voiceName = expandEnv(String(tts.voice || ''), env).trim() || DEFAULT_TTS_VOICE;
    const baseUrl = expandEnv(String(settings.baseUrl), env).trim() || undefined;
    const configuredDevice = expandEnv(String(settings.deviceId), env).trim();
    const closing = new AbortController();
    const listener = getListenerNode(RED, settings.listener);
    if (!listener) {
      // Never throw from a constructor: say it, and every message gets the same error.
      node.error(t('esp32-say.errors.no-listener'));
      node.status({ fill: 'red', shape: 'ring', text: t('esp32-say.status.no-listener') });
    } else {
      void listener.register(node);
    }

    /** The listener's voice, or an error saying what to configure. */
    function voiceOf(): DeviceConversations {
      if (!listener) throw new McpNodeError(t('esp32-say.errors.no-listener'), t('esp32-say.status.no-listener'), 'SAY_NO_LISTENER');
      const voice = listener.voice;
      const mode = voice?.voiceMode ?? 'off';
      if (!voice || mode !== 'flow')
        throw new McpNodeError(t('esp32-say.errors.voice-not-flow', { mode }), t('esp32-say.status.voice-not-flow'), 'SAY_VOICE_OFF');
      return voice;
    }

    function inputOf(payload: unknown, sampleRate: unknown) {
      try {
        return speechInput(payload, sampleRate);
      } catch (err) {
        if (!(err instanceof SpeechInputError)) throw err;
        throw new McpNodeError(t(`esp32-say.errors.${err.reason}`, { detail: err.message }), t(`esp32-say.status.${err.reason}`), 'SAY_BAD_INPUT');
      }
    }

    const synthesize: SpeechSynthesizer = (text, signal) => {
      const apiKey = resolveApiKey(node.credentials?.apiKey, env);
      const client = createGeminiClient({ apiKey, baseUrl, apiVersion: DEFAULT_API_VERSION });
      // One controller per request, released when it ends (AbortSignal.any would tie every request
      // to the node's long-lived close signal).
      const controller = new AbortController();
      const stop = () => controller.abort();
      signal.addEventListener('abort', stop, { once: true });
      closing.signal.addEventListener('abort', stop, { once: true });
      return synthesizeSpeech({
        client,
        text,
        model,
        voice: voiceName,
        signal: controller.signal,
        secrets: [apiKey],
        endpoint: `${baseUrl ?? DEFAULT_BASE_URL}/${DEFAULT_API_VERSION}/models/${model}`,
      }).finally(() => {
        signal.removeEventListener('abort', stop);
        closing.signal.removeEventListener('abort', stop);
      });
    };

    handleInput(
      RED,
      node,
      async (msg, send) => {
        const voice = voiceOf();
        const deviceId = configuredDevice || String((msg.device as { id?: unknown } | undefined)?.id ?? '');
        if (!deviceId) throw new McpNodeError(t('esp32-say.errors.no-device'), t('esp32-say.status.no-device'), 'SAY_NO_DEVICE');
        const conversation = voice.conversation(deviceId);
        if (!conversation)
          throw new McpNodeError(t('esp32-say.errors.not-connected', { device: deviceId }), t('esp32-say.status.not-connected'), 'SAY_NOT_CONNECTED');
        const input = inputOf(msg.payload, msg.sampleRate);
        const display = typeof msg.display === 'string' && msg.display ? msg.display : undefined;
        const result = await conversation.speak(input, { display, tts: typeof input === 'string' ? synthesize : undefined });
        msg.payload = { durationMs: result.durationMs, aborted: result.aborted };
        send(msg);
      },
      { busyText: t('esp32-say.status.speaking') },
    );

    node.on('close', (_removed: boolean, done: () => void) => {
      closing.abort();
      if (listener) listener.deregister(node).then(done, done);
      else done();
    });
  }
  RED.nodes.registerType('esp32-say', Esp32SayNode, { credentials: CREDENTIALS });
};

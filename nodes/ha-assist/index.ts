// ha-assist ("ask home assistant"): msg.payload, a sentence, goes to Home Assistant's Assist (the
// conversation agent of a pipeline) and its answer comes back as msg.payload, with
// msg.conversationId to continue the talk and msg.assist for what Home Assistant did. It reaches
// Home Assistant through an mcp-server's URL and token (src/home-assistant/assist-text.ts); its status
// shows whether Home Assistant answers from the moment the node starts, not only after a message.
import { McpNodeError } from '../../src/errors';
import { startAssistText, AssistUnavailable } from '../../src/home-assistant/assist-text';
import { PipelineFailed, PipelineRefused } from '../../src/home-assistant/pipeline-run';
import { deployedSettings } from '../../src/settings-declaration';
import { nodeEnvLookup } from '../shared/node-env';
import { homeAssistantBearer } from '../shared/home-assistant-bearer';
import { registerAssistPipelinesRoute } from '../shared/assist-pipelines-route';
import { handleInput } from '../shared/input-handler';
import { statusWriter } from '../shared/node-status';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, NodeMessage, RED } from '../shared/red-types';
import { SETTINGS } from './settings';

export = function register(RED: RED) {
  const t = translator(RED, 'ha-assist');
  registerAssistPipelinesRoute(RED); // the dialog's pipeline list
  function HaAssistNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    // ${VAR} in every text setting, as in the other nodes (the pipeline and language may live on the tab).
    const settings = deployedSettings(def, SETTINGS, nodeEnvLookup(RED, node));
    const timeoutS = Number(settings.timeout) > 0 ? Number(settings.timeout) : SETTINGS.timeout.value;
    const assist = startAssistText(
      { pipeline: String(settings.pipeline).trim() || undefined, language: String(settings.language).trim() || undefined, timeoutS },
      homeAssistantBearer(RED, String(settings.server)),
    );
    const closing = new AbortController();
    const status = statusWriter(RED, node);
    if (!settings.server) status.fixed({ fill: 'red', shape: 'ring', text: t('ha-assist.status.no-server') });
    // At rest the status is Home Assistant's: connecting, connected (its version) or why not.
    status.note = () => {
      const problem = assist.problem();
      if (problem) return { fill: 'red', shape: 'ring', text: problem.length > 40 ? problem.slice(0, 39) + '…' : problem };
      const state = assist.state();
      if (state?.kind === 'ready') return { fill: 'green', shape: 'dot', text: t('ha-assist.status.connected', { version: state.version }) };
      if (state?.kind === 'connecting') return { fill: 'yellow', shape: 'ring', text: t('ha-assist.status.connecting') };
      return undefined;
    };
    assist.onChange(() => status.render());
    // Config nodes (the mcp-server) are created before flow nodes, so the link can be made once this
    // constructor is done; one timer per node rather than one more listener on the runtime's events.
    const connecting = setImmediate(() => assist.connect());

    handleInput(
      RED,
      node,
      async (msg: NodeMessage, send) => {
        if (!settings.server) throw new McpNodeError(t('ha-assist.errors.no-server'), t('ha-assist.status.no-server'), 'ASSIST_NO_SERVER');
        const text = typeof msg.payload === 'string' ? msg.payload.trim() : '';
        if (!text) throw new McpNodeError(t('ha-assist.errors.no-text'), t('ha-assist.status.no-text'), 'ASSIST_NO_TEXT');
        const conversationId = typeof msg.conversationId === 'string' && msg.conversationId ? msg.conversationId : undefined;
        const answer = await assist.ask(text, conversationId, closing.signal).catch((err: Error) => {
          throw asNodeError(err);
        });
        msg.payload = answer.speech;
        msg.conversationId = answer.conversationId;
        msg.assist = {
          pipeline: answer.pipeline,
          responseType: answer.response.response_type,
          continueConversation: answer.continueConversation,
          response: answer.response,
        };
        send(msg);
      },
      { busyText: t('ha-assist.status.asking') },
    );

    /** Each way a text can fail, in words that say what to do, with a code a Catch node can switch on. */
    function asNodeError(err: Error): Error {
      if (err instanceof AssistUnavailable)
        return new McpNodeError(t('ha-assist.errors.unavailable', { reason: err.message }), err.message, 'ASSIST_UNAVAILABLE');
      if (err instanceof PipelineRefused)
        return new McpNodeError(t('ha-assist.errors.refused', { code: err.code, reason: err.message }), err.code, 'ASSIST_REFUSED');
      if (err instanceof PipelineFailed)
        return new McpNodeError(
          t('ha-assist.errors.failed', { code: err.code, reason: err.message }),
          err.code,
          err.code === 'timeout' ? 'ASSIST_TIMEOUT' : 'ASSIST_FAILED',
        );
      if (err.name === 'AbortError') return new McpNodeError(t('ha-assist.errors.closed'), 'closed', 'ASSIST_CLOSED');
      return err;
    }

    node.on('close', (_removed: boolean, done: () => void) => {
      clearImmediate(connecting);
      closing.abort();
      assist.close();
      done();
    });
  }
  RED.nodes.registerType('ha-assist', HaAssistNode);
};

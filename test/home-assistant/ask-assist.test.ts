// ha-assist ("ask home assistant") in the real Node-RED runtime against the Home Assistant stand-in
// (test/peers/home-assistant), once per Home Assistant generation: a sentence goes to an Assist
// pipeline's intent stage over HA's WebSocket API and the answer comes back; the conversation goes on
// with msg.conversationId; every failure reaches a Catch node with a code; the status shows Home
// Assistant's state before any message; the token shows nowhere.
import assert from 'node:assert/strict';
import { captureLogs, helper, load, nextMessage, send, startRuntime, stopRuntime, fromRuntime, type FlowNode } from '../helpers/runtime';
import { waitFor } from '../helpers/wait';
import { HA_GENERATIONS, startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { freePort } from '../peers/free-port';

const assistNode = require('../../nodes/ha-assist/index.ts');
const statusNode = require(fromRuntime('@node-red/nodes/core/common/25-status.js'));

function flow(haUrl: string, assist: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: haUrl },
    { id: 'ask', type: 'ha-assist', server: 'ha', ...assist, wires: [['out']] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: ['ask'], uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
    { id: 'watch', type: 'status', scope: ['ask'], wires: [['statuses']] },
    { id: 'statuses', type: 'helper' },
  ];
}

for (const generation of HA_GENERATIONS) describeOn(generation);

function describeOn(generation: HaGeneration) {
  describe(`ha-assist: text to Home Assistant's Assist (real runtime, Home Assistant ${generation})`, function () {
    this.timeout(30_000);
    let ha: HomeAssistantStandIn;
    const statuses: Array<{ fill?: string; text?: string }> = [];
    before(async () => {
      await startRuntime();
      ha = await startHomeAssistant({ assist: true, generation });
    });
    after(async () => {
      await ha?.close();
      await stopRuntime();
    });
    beforeEach(() => {
      ha.assist!.runs.length = 0;
      ha.assist!.script({ transcript: '', answer: 'Turned on the light' });
      statuses.length = 0;
    });
    afterEach(() => helper.unload());

    async function loadAssist(assist: Record<string, unknown> = {}, token = ha.token, url = ha.url) {
      await load(flow(url, assist), { ha: { token } }, [assistNode, statusNode]);
      helper.getNode('statuses').on('input', (m: any) => statuses.push(m.status));
    }

    it('shows Home Assistant connected on its status before any message', async () => {
      await loadAssist();
      const shown = await waitFor(() => statuses.find((s) => s.fill === 'green'), 'a green status');
      assert.match(String(shown.text), /^Home Assistant 20\d\d\.\d+/);
      assert.equal(ha.assist!.runs.length, 0);
    });

    it('a dozen ha-assist nodes each show Home Assistant connected, and Node warns of nothing', async () => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
      process.on('warning', onWarning);
      try {
        const many = Array.from({ length: 12 }, (_, i) => ({ id: `ask${i}`, type: 'ha-assist', server: 'ha', wires: [[]] }));
        const shown = new Map<string, string>();
        await load(
          [
            { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: ha.url },
            ...many,
            { id: 'watch', type: 'status', scope: many.map((n) => n.id), wires: [['statuses']] },
            { id: 'statuses', type: 'helper' },
          ],
          { ha: { token: ha.token } },
          [assistNode, statusNode],
        );
        helper.getNode('statuses').on('input', (m: any) => shown.set(m.status.source.id, m.status.fill));
        await waitFor(() => (many.every((n) => shown.get(n.id) === 'green') ? true : undefined), 'twelve green statuses');
        assert.deepEqual(warnings, []);
      } finally {
        process.off('warning', onWarning);
      }
    });

    it('sends msg.payload to the preferred pipeline and answers with its speech, conversation id and response', async () => {
      await loadAssist();
      send('ask', { payload: 'Turn on the kitchen light', topic: 'kept' });
      const msg = await nextMessage('out');
      assert.equal(msg.payload, 'Turned on the light');
      assert.equal(msg.topic, 'kept');
      assert.match(msg.conversationId, /^01conv\d+/);
      assert.equal(msg.assist.pipeline, '01kitchen-en');
      assert.equal(msg.assist.responseType, 'action_done');
      assert.equal(msg.assist.continueConversation, false);
      assert.deepEqual(msg.assist.response.data.success, [{ name: 'Kitchen Light', type: 'entity', id: 'light.kitchen' }]);
      assert.equal(ha.assist!.runs.length, 1);
      assert.equal(ha.assist!.runs[0].text, 'Turn on the kitchen light');
      assert.equal(ha.assist!.runs[0].conversationIdIn, undefined);
    });

    it('continues a conversation when msg.conversationId comes back, and says when the agent asks back', async () => {
      await loadAssist();
      ha.assist!.script({ transcript: '', answer: 'Which room?', continueConversation: true }, { transcript: '', answer: 'Turned on the bedroom light' });
      send('ask', { payload: 'Turn on the light' });
      const first = await nextMessage('out');
      assert.equal(first.payload, 'Which room?');
      assert.equal(first.assist.continueConversation, true);
      send('ask', { payload: 'The bedroom', conversationId: first.conversationId });
      const second = await nextMessage('out');
      assert.equal(second.payload, 'Turned on the bedroom light');
      assert.equal(ha.assist!.runs[1].conversationIdIn, first.conversationId);
      assert.equal(second.conversationId, first.conversationId);
    });

    it('picks the pipeline that speaks the language set, and one set by id', async () => {
      await loadAssist({ language: 'fr-FR' });
      send('ask', { payload: 'Allume la cuisine' });
      assert.equal((await nextMessage('out')).assist.pipeline, '01cuisine-fr');
      await loadAssist({ pipeline: '01cuisine-fr' });
      send('ask', { payload: 'Allume la cuisine' });
      assert.equal((await nextMessage('out')).assist.pipeline, '01cuisine-fr');
      assert.deepEqual(
        ha.assist!.runs.map((r) => r.pipeline),
        ['01cuisine-fr', '01cuisine-fr'],
      );
    });

    it('sends each failure to Catch with a code that says what to do, and keeps the message', async () => {
      await loadAssist();
      send('ask', { payload: '   ', _msgid: 'empty' });
      let caught = await nextMessage('caught');
      assert.equal(caught.error.code, 'ASSIST_NO_TEXT');
      assert.equal(caught._msgid, 'empty');
      send('ask', { payload: { text: 'not a string' } });
      assert.equal((await nextMessage('caught')).error.code, 'ASSIST_NO_TEXT');
      assert.equal(ha.assist!.runs.length, 0);

      ha.assist!.script({ transcript: '', answer: '', fail: 'intent-failed' });
      send('ask', { payload: 'Turn on the kitchen light' });
      caught = await nextMessage('caught');
      assert.equal(caught.error.code, 'ASSIST_FAILED');
      assert.match(caught.error.message, /intent-failed.*Unexpected error during intent recognition/);

      await loadAssist({ pipeline: 'no-such-pipeline' });
      send('ask', { payload: 'Turn on the kitchen light' });
      caught = await nextMessage('caught');
      assert.equal(caught.error.code, 'ASSIST_REFUSED');
      assert.match(caught.error.message, /pipeline-not-found/);

      await loadAssist({ language: 'tlh' });
      send('ask', { payload: 'Qapla' });
      caught = await nextMessage('caught');
      assert.equal(caught.error.code, 'ASSIST_REFUSED');
      assert.match(caught.error.message, /no Assist pipeline in Home Assistant speaks "tlh"/);
    });

    it('a wrong token: red status naming the token before any message, the error to Catch, and the token nowhere', async () => {
      const wrong = 'wrong-token-0123456789abcdef';
      const logs = captureLogs();
      await loadAssist({}, wrong);
      const shown = await waitFor(() => statuses.find((s) => s.fill === 'red'), 'a red status');
      assert.match(String(shown.text), /token was refused/);
      send('ask', { payload: 'Turn on the kitchen light' });
      const caught = await nextMessage('caught');
      assert.equal(caught.error.code, 'ASSIST_UNAVAILABLE');
      assert.match(caught.error.message, /token was refused/);
      const everything = JSON.stringify([caught, statuses, logs.lines()]);
      assert.ok(!everything.includes(wrong), 'the token appears somewhere');
      assert.ok(!everything.includes(ha.token));
    });

    it('Home Assistant not running: the status says so, and a message fails to Catch instead of waiting', async () => {
      const port = await freePort();
      await loadAssist({}, ha.token, `http://127.0.0.1:${port}/api/mcp`);
      const shown = await waitFor(() => statuses.find((s) => s.fill === 'red'), 'a red status');
      assert.match(String(shown.text), /refused|reach/);
      send('ask', { payload: 'Turn on the kitchen light' });
      const caught = await nextMessage('caught');
      assert.equal(caught.error.code, 'ASSIST_UNAVAILABLE');
    });

    it('no server chosen: a red status at once and ASSIST_NO_SERVER for each message', async () => {
      await load(flow(ha.url, { server: '' }), {}, [assistNode, statusNode]);
      send('ask', { payload: 'Turn on the kitchen light' });
      const caught = await nextMessage('caught');
      assert.equal(caught.error.code, 'ASSIST_NO_SERVER');
      assert.match(caught.error.message, /pick the mcp-server/);
    });

    it('a redeploy while Home Assistant is answering ends the message with an error, not silence', async () => {
      await loadAssist();
      // The Catch node closes with the flow: the runtime hands the message's error to node.error.
      const ask = helper.getNode('ask');
      const errors: string[] = [];
      const error = ask.error.bind(ask);
      ask.error = (err: unknown, msg: unknown) => {
        errors.push(String((err as Error)?.message ?? err));
        error(err, msg);
      };
      ha.assist!.delays.intent = 2000;
      try {
        send('ask', { payload: 'Turn on the kitchen light' });
        await waitFor(() => ha.assist!.runs[0], 'the run started');
        await helper.unload();
        await waitFor(
          () => errors.find((e) => e.includes('the node was stopped (redeploy) before Home Assistant answered')),
          'the message ended with an error',
        );
      } finally {
        ha.assist!.delays.intent = 30;
      }
    });
  });
}

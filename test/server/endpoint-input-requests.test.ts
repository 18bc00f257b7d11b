// A flow answering a tool call asks the person behind the client first (mcp-tool-out with
// msg.input), and the answer comes back out of the call's mcp-tool-in: against the real SDK client
// with an elicitation handler, on 2025-11-25 (elicitation/create during the call) and 2026-07-28
// (input_required, and the client retries with the answer and our sealed call handle). Form and
// URL requests, accept and decline, a client that cannot answer, a bad request, and a person who
// never answers: the call ends after the tool's input wait and nothing stays pending.
import assert from 'node:assert/strict';
import { helper } from '../helpers/runtime';
import { connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, textOf, type Era, type FlowNode } from './harness';
import { waitFor } from '../helpers/wait';

const TOKEN = 'tok-input-5b8e';
const TABLE_FORM = { type: 'object', properties: { table: { type: 'string', enum: ['window', 'bar'] } }, required: ['table'] };

function flow(): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path: '/mcp', name: 'booking' },
    { id: 'in-book', type: 'mcp-tool-in', endpoint: 'ep', name: 'book', wires: [['book-fn']] },
    {
      id: 'book-fn',
      type: 'function',
      func: `if (msg.topic === 'input') { msg.payload = msg.input.action === 'accept' ? 'Booked the ' + msg.input.content.table + ' table.' : 'Not booked: ' + msg.input.action; return msg; }
msg.input = { message: 'Which table?', schema: ${JSON.stringify(TABLE_FORM)} };
return msg;`,
      wires: [['out']],
    },
    { id: 'in-pay', type: 'mcp-tool-in', endpoint: 'ep', name: 'pay', wires: [['pay-fn']] },
    {
      id: 'pay-fn',
      type: 'function',
      func: `if (msg.topic === 'input') { msg.payload = 'Paid: ' + msg.input.action; return msg; }
msg.input = { message: 'Pay on the page', url: 'https://example.org/pay/42' };
return msg;`,
      wires: [['out']],
    },
    { id: 'in-bad', type: 'mcp-tool-in', endpoint: 'ep', name: 'bad_ask', wires: [['bad-fn']] },
    { id: 'bad-fn', type: 'function', func: 'msg.input = { schema: { type: "object", properties: {} } }; return msg;', wires: [['out']] },
    { id: 'in-slow', type: 'mcp-tool-in', endpoint: 'ep', name: 'slow', inputTimeout: 1, wires: [['slow-fn']] },
    { id: 'slow-fn', type: 'function', func: 'msg.input = { message: "Anyone there?" }; return msg;', wires: [['out']] },
    // The node's own refusals (a bad request, a client that cannot answer) end the call through Catch.
    { id: 'catcher', type: 'catch', scope: ['out'], uncaught: false, wires: [['out']] },
    { id: 'out', type: 'mcp-tool-out' },
  ];
}

const ELICITATION = { capabilities: { elicitation: { form: {}, url: {} } } };

describe('mcp-endpoint: a flow asks the client for input (msg.input on mcp-tool-out)', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(() => loadFlow(flow(), { ep: { tokens: TOKEN } }));

  for (const era of ['2025-11-25', '2026-07-28'] as Era[]) {
    describe(era, () => {
      it('a form: the person picks a table and the flow books it; a decline reaches the flow too', async () => {
        const c = await connect('/mcp', era, TOKEN, ELICITATION);
        const asked: any[] = [];
        let answer: Record<string, unknown> = { action: 'accept', content: { table: 'window' } };
        c.client.setRequestHandler('elicitation/create', async (request) => {
          asked.push(request.params);
          return answer as any;
        });
        try {
          const booked = await c.client.callTool({ name: 'book', arguments: {} });
          assert.equal(textOf(booked), 'Booked the window table.');
          assert.equal(asked.length, 1);
          assert.equal(asked[0].message, 'Which table?');
          assert.deepEqual(asked[0].requestedSchema, TABLE_FORM);
          answer = { action: 'decline' };
          const declined = await c.client.callTool({ name: 'book', arguments: {} });
          assert.equal(textOf(declined), 'Not booked: decline');
          assert.equal(helper.getNode('ep').endpoint.pending.size, 0);
        } finally {
          await disconnect(c);
        }
      });

      it('an answer that does not fit the form never reaches the flow: the call ends with the reason', async () => {
        const c = await connect('/mcp', era, TOKEN, ELICITATION);
        c.client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { table: 'kitchen', confirm: 'DROP TABLE' } }) as any);
        try {
          const outcome = await c.client.callTool({ name: 'book', arguments: {} }).then(
            (r) => textOf(r) || JSON.stringify(r),
            (err: Error) => err.message,
          );
          assert.doesNotMatch(outcome, /Booked/, 'the flow never booked with that answer');
          if (era === '2026-07-28') assert.match(outcome, /does not match requested schema: .*table/);
          else assert.match(outcome, /does not match requested schema|No answer to the input request|input request failed/i);
        } finally {
          await disconnect(c);
        }
      });

      it('a URL: the person is sent to the page, and the flow hears that they accepted', async () => {
        const c = await connect('/mcp', era, TOKEN, ELICITATION);
        const asked: any[] = [];
        c.client.setRequestHandler('elicitation/create', async (request) => {
          asked.push(request.params);
          return { action: 'accept' } as any;
        });
        try {
          const paid = await c.client.callTool({ name: 'pay', arguments: {} });
          assert.equal(textOf(paid), 'Paid: accept');
          assert.equal(asked[0].mode, 'url');
          assert.equal(asked[0].url, 'https://example.org/pay/42');
        } finally {
          await disconnect(c);
        }
      });

      it('a client that cannot answer, and a request without a message: the call ends with an error that says why', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const refused = await c.client.callTool({ name: 'book', arguments: {} });
          assert.equal(refused.isError, true);
          assert.match(textOf(refused), /Cannot ask the client for input: the client endpoint-test did not say it can answer input requests/);
          const bad = await c.client.callTool({ name: 'bad_ask', arguments: {} });
          assert.equal(bad.isError, true);
          assert.match(textOf(bad), /msg.input needs a message/);
        } finally {
          await disconnect(c);
        }
      });

      it('a person who never answers: the call ends after the input wait, and no call stays pending', async () => {
        const c = await connect('/mcp', era, TOKEN, ELICITATION);
        let asked = 0;
        c.client.setRequestHandler('elicitation/create', () => {
          asked++;
          return new Promise(() => undefined); // the person walked away
        });
        const stop = new AbortController();
        const pending = () => helper.getNode('ep').endpoint.pending.size;
        try {
          const call = c.client.callTool({ name: 'slow', arguments: {} }, { signal: stop.signal }).then(
            (r) => ({ result: r }),
            (err: Error) => ({ error: err }),
          );
          await waitFor(() => asked > 0 || undefined, 'the client to be asked');
          assert.equal(pending(), 1, 'the call waits for the person');
          await waitFor(() => pending() === 0 || undefined, 'the call to end after its input wait of 1 s');
          if (era === '2025-11-25') {
            // The call was still open: its caller hears why it ended.
            const { result } = (await call) as { result: any };
            assert.match(textOf(result), /No answer to the input request of slow within 1 s/);
          } else {
            // The call's request was answered with input_required; the client, still waiting for its person,
            // never retried (its call stays with the unanswered handler, as a client's would: nothing of ours waits on it).
            stop.abort();
          }
        } finally {
          stop.abort();
          await disconnect(c);
        }
      });
    });
  }
});

// Tool calls waiting for a flow (mcp-tool-in sent them, mcp-tool-out answers): a timeout or cancel
// is an error result the model can read, a flow may report progress meanwhile, and a flow may ask
// the client for input first (asking-the-client.ts): the person's time does not count against the
// tool's timeout, but against the tool's input wait.
import { PendingRequests, type WaitingRequest } from './pending-requests';
import { checkedAnswer, elicitParams, inputRequiredResult, clientAnswer, type ClientAnswer, type FlowInputRequest } from './asking-the-client';
import { errorResult, type ProgressUpdate, type ToolAnswer, type ToolCall } from './types';

export { PendingRequests, requestFailure, type WaitingRequest } from './pending-requests';

interface WaitingCall extends ToolCall, WaitingRequest {
  /** How long a person has to answer the flow's input request. */
  inputWaitMs: number;
  /** The client's answer to the flow's input request goes back into the flow. */
  onInput?: (handle: string, answer: ClientAnswer) => void;
  /** The form of the question asked by a 2026-07-28 retry: its answer is checked against it. */
  askedSchema?: FlowInputRequest['schema'];
}

export class PendingCalls extends PendingRequests<ToolAnswer, WaitingCall> {
  constructor() {
    super(errorResult, 'wire its mcp-tool-in to an mcp-tool-out (keep msg._mcp)');
  }

  override wait(
    call: ToolCall,
    timeoutMs: number,
    deliver: (handle: string) => void,
    input?: { onInput: NonNullable<WaitingCall['onInput']>; inputWaitMs: number },
  ): Promise<ToolAnswer> {
    return super.wait({ ...call, what: `the call of ${call.tool}`, onInput: input?.onInput, inputWaitMs: input?.inputWaitMs ?? timeoutMs }, timeoutMs, deliver);
  }

  async progress(handle: string, update: ProgressUpdate): Promise<boolean> {
    const call = this.requestOf(handle);
    if (!call) return false;
    await call.progress(update);
    return true;
  }

  /**
   * Asks the call's client for input on the flow's behalf. Resolves once the request is on its way
   * (throws with why it cannot be sent); the answer comes back through the call's onInput, and a
   * failure on the client's side later goes to `failed` (the call keeps waiting for the flow).
   */
  async ask(handle: string, request: FlowInputRequest, failed: (err: Error) => void): Promise<void> {
    const call = this.requestOf(handle);
    if (!call) throw new Error('this call is no longer waiting (answered, timed out or cancelled), so its client cannot be asked');
    const input = call.input?.kind === 'deferred' ? call.input.current() : call.input;
    if (!input)
      throw new Error(
        `the client ${call.client.name ?? '(unnamed)'} did not say it can answer input requests (no elicitation capability); answer the call instead`,
      );
    if (input.kind === 'retry') {
      call.askedSchema = request.url ? undefined : request.schema;
      const sealed = await input.seal(handle);
      if (!this.detach(handle, inputRequiredResult(request, sealed), call.inputWaitMs, personTimedOut(call)))
        throw new Error('this call is no longer waiting for the client');
      return;
    }
    this.restartTimer(handle, undefined, call.inputWaitMs, personTimedOut(call));
    input.ask(elicitParams(request)).then(
      (result) => {
        if (this.requestOf(handle) !== call) return; // answered, timed out or cancelled while the person thought
        this.restartTimer(handle);
        call.onInput?.(handle, clientAnswer(result));
      },
      (err: Error) => {
        if (this.requestOf(handle) === call) this.restartTimer(handle);
        failed(err);
      },
    );
  }

  /** A 2026-07-28 retry carrying the person's answer: it takes over the call, and the answer goes to the flow. */
  resume(handle: string, call: ToolCall, answer: ClientAnswer): Promise<ToolAnswer> | undefined {
    const before = this.requestOf(handle);
    if (!before) return undefined;
    // An answer that does not fit the form is refused here, as the SDK refuses it on 2025; the call
    // keeps waiting for a retry with an answer that fits.
    checkedAnswer(answer, before.askedSchema);
    const answered = this.reattach(handle, {
      ...call,
      what: before.what,
      onInput: before.onInput,
      inputWaitMs: before.inputWaitMs,
      askedSchema: before.askedSchema,
    });
    if (answered && this.requestOf(handle)) before.onInput?.(handle, answer);
    return answered;
  }
}

const personTimedOut = (call: WaitingCall) =>
  `No answer to the input request of ${call.tool} within ${call.inputWaitMs / 1000} s (the tool's input wait): the call ends without it.`;

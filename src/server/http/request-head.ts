// A web Request that is only a head: method, URL, headers and signal, made without undici's Request
// constructor, which follows the signal with listeners, parses the URL again and copies the headers
// (a tenth of the endpoint's CPU per call in bench:endpoint's profile). The endpoint's own checks and
// the SDK's transport read nothing else from a POST whose body is handed over already parsed. Should
// anything read more (a body method, clone(), cache, …), the real Request is made then, once, and
// answers for it; `instanceof Request` holds either way. The same idea as @hono/node-server's
// request object, which the bare server in bench:endpoint runs on.
import { answerTheRestWith } from './lazy-web-object';
const real = Symbol('real request');

export class RequestHead {
  private [real]?: Request;

  constructor(
    readonly url: string,
    readonly method: string,
    readonly headers: Headers,
    readonly signal: AbortSignal,
  ) {}

  /** The full Request, built the first time something beyond the head is asked for. */
  static full(head: RequestHead): Request {
    return (head[real] ??= new Request(head.url, { method: head.method, headers: head.headers, signal: head.signal }));
  }
}

// Everything else a Request has is answered by the full one.
answerTheRestWith(RequestHead, Request, ['url', 'method', 'headers', 'signal'], (x) => RequestHead.full(x));

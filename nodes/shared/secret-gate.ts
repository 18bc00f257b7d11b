// The gate every text leaving one of our nodes passes (CONVENTIONS 18): status, log lines, errors
// (incl. the one handed to done() that a Catch node sees), sent messages and admin-route answers
// are scrubbed by the package's one scrubber (src/secrets.ts), whatever produced the text.
import type { Request, RequestHandler } from 'express';
import { secrets } from '../../src/secrets';
import type { Node, NodeMessage, SendFn } from './red-types';
import { isReadableError } from './readable-error';

const GUARDED = Symbol('mcp-gemini.secretGate');
const LOG_METHODS = ['log', 'warn', 'debug', 'trace'] as const;

/** Wraps the node's own status/log/error/send so nothing it writes carries a secret. Idempotent. */
export function guardNode(node: Node): void {
  const n = node as Node & { [GUARDED]?: true };
  if (n[GUARDED]) return;
  n[GUARDED] = true;
  const status = node.status.bind(node);
  node.status = (s) => status(typeof s === 'string' ? secrets.scrub(s) : typeof s?.text === 'string' ? { ...s, text: secrets.scrub(s.text) } : s);
  for (const method of LOG_METHODS) {
    const original = (node[method] as (m: unknown) => void).bind(node);
    node[method] = (m: unknown) => original(scrubLogged(m));
  }
  const error = node.error.bind(node);
  node.error = (m: unknown, msg?: NodeMessage) => error(scrubLogged(m), msg === undefined ? msg : secrets.scrubValue(msg));
  const send = node.send.bind(node);
  node.send = (msg) => send(secrets.scrubValue(msg));
}

export function scrubbedSend(send: SendFn): SendFn {
  return (msg) => send(secrets.scrubValue(msg));
}

export function scrubbedError(err: Error): Error {
  return secrets.scrubError(err);
}

function scrubLogged(m: unknown): unknown {
  if (typeof m === 'string') return secrets.scrub(m);
  if (isReadableError(m)) {
    const text = secrets.scrub(String(m));
    return Object.assign(new String(text), { message: text }, m.code === undefined ? {} : { code: m.code });
  }
  if (m instanceof Error) return secrets.scrubError(m);
  return secrets.scrubValue(m);
}

/**
 * Express middleware for our admin routes: every JSON answer is scrubbed, with `extraFrom(req)`
 * (a token or key typed into an undeployed dialog) masked as well.
 */
export function scrubAnswers(extraFrom: (req: Request) => Array<string | undefined> = () => []): RequestHandler {
  return (req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => json(secrets.scrubValue(body, extraFrom(req)));
    next();
  };
}

export function secretsInBody(req: Request): Array<string | undefined> {
  const body = req?.body ?? {};
  const out: Array<string | undefined> = [];
  for (const key of ['token', 'apiKey']) if (typeof body[key] === 'string') out.push(body[key]);
  const typed = body.secrets;
  if (typed && typeof typed === 'object') {
    for (const group of Object.values(typed as Record<string, unknown>)) {
      if (group && typeof group === 'object') for (const v of Object.values(group as Record<string, unknown>)) if (typeof v === 'string') out.push(v);
    }
  }
  return out;
}

// The gemini-agent's conversation memory in the node's context (memory "context"): one history per
// session key, in whatever context store the user configured (the callback form covers async stores).
import type { Content } from '@google/genai';
import { contextKey } from '../../src/gemini/memory';
import type { Node } from '../shared/red-types';

export interface AgentMemory {
  load(session: string): Promise<Content[]>;
  save(session: string, contents: Content[]): Promise<void>;
}

export function contextMemory(node: Node): AgentMemory {
  return {
    load: (session) =>
      new Promise((resolve, reject) => {
        node.context().get(contextKey(session), undefined, (err, value) => (err ? reject(err) : resolve(Array.isArray(value) ? (value as Content[]) : [])));
      }),
    save: (session, contents) =>
      new Promise((resolve, reject) => {
        node.context().set(contextKey(session), contents, undefined, (err) => (err ? reject(err) : resolve()));
      }),
  };
}

// RED._ with a fallback to our own en-US catalogue. The runtime loads each node's catalogue for
// installed packages (dist/nodes/<type>/locales/en-US/index.json, written by the build from
// nodes/<type>/locale.json), but a node loaded another way (the test helper) gets bare keys back,
// and a user must never see "mcp-call-tool.errors.noTool" instead of a sentence.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RED } from './red-types';

const catalogues = new Map<string, Record<string, unknown>>();

function catalogue(namespace: string): Record<string, unknown> {
  let c = catalogues.get(namespace);
  if (!c) {
    c = {};
    // The source folder's locale.json (tests run the TypeScript), else the built catalogue.
    for (const file of [join(__dirname, '..', namespace, 'locale.json'), join(__dirname, '..', namespace, 'locales', 'en-US', 'index.json')]) {
      try {
        c = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        break;
      } catch {
        /* the other place */
      }
    }
    catalogues.set(namespace, c);
  }
  return c;
}

export type Translate = (key: string, subs?: Record<string, unknown>) => string;

/** `namespace` is the node type whose locale file holds the keys (keys start with it too). */
export function translator(RED: RED, namespace: string): Translate {
  return (key, subs = {}) => {
    // i18next formats any substitution value; the published type only lists strings and numbers.
    const v = RED._(key, subs as Record<string, string | number>);
    if (v && v !== key) return v;
    let node: unknown = catalogue(namespace);
    for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    if (typeof node !== 'string') return key;
    return node.replace(/__(\w+)__/g, (_m, name: string) => (subs[name] === undefined ? '' : String(subs[name])));
  };
}

// Same-document references ("#", "#/$defs/x", "#/properties/a~1b/items/0") resolved against a
// schema's root, per RFC 6901 inside a URI fragment (percent-decoded, then ~1 → "/", ~0 → "~").
import { isObject } from './types';

function decodePointerToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value the reference points at, or undefined when it leaves the document or points nowhere. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodePointerToken(raw);
    } catch {
      return undefined; // malformed percent-encoding names nothing
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

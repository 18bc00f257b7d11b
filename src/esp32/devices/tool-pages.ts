// Devices running the same firmware list the same tools, page for page. Reading a page leniently
// (src/mcp/lenient/lenient-list.ts: a deep copy, repairs, schema checks) costs more than the rest of a
// device's handshake together, and each copy stays on the heap for as long as the device is
// connected. So the reading of a page is kept by the page's content and shared, frozen, by every
// session that receives the same page: a fleet of 10,000 identical devices reads and holds its
// tools once. A device with other tools (another board, user tools) simply adds an entry.
import { readListLeniently, type LenientPage } from '../../mcp/lenient/lenient-list';

/** Distinct pages kept (boards × pages); the least recently used goes first. */
const MAX_PAGES = 256;
/** By the page's JSON: V8's JSON.stringify is several times faster than hashing the value in JS. */
const pages = new Map<string, LenientPage>();

/** `readListLeniently('tools', raw)`, shared between sessions that receive the same page. */
export function readToolPage(raw: unknown): LenientPage {
  const key = JSON.stringify(raw);
  const known = pages.get(key);
  if (known) {
    pages.delete(key); // Map order is use order
    pages.set(key, known);
    return known;
  }
  const page = deepFreeze(readListLeniently('tools', raw));
  pages.set(key, page);
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
  return page;
}

/** Frozen all the way down: a shared tool can be read by every flow but changed by none. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

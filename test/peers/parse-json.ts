// Peers read what arrives as JSON and drop what is not, as the firmware and servers they imitate do.

/** The parsed value, or undefined when `text` is not JSON. */
export function parseJsonOrUndefined(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Shortening text for places with little room (a node status, a warning quoting a value, an error
// quoting a server's reply): at most `max` characters, a cut shown by a trailing "…".

/** `text` itself when it fits in `max` characters, else its first max-1 characters and "…". */
export function shorten(text: string, max: number): string {
  return text.length > max ? text.slice(0, Math.max(0, max - 1)) + '…' : text;
}

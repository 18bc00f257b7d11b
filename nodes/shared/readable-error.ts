// What a failed message hands to done(). Node-RED's debug sidebar shows an Error as an object to
// unfold (name, code, stack: "McpNodeError" and twenty lines of bundle paths); a string shows as
// the one red sentence a person reads. A String object gives both sides what they need: the sidebar
// and the log print its text, and a Catch node still gets msg.error.message (its toString()) and
// msg.error.code (an own property, which Node-RED copies); onComplete hooks read its `message`.
import type { McpNodeError } from '../../src/errors';

export type ReadableError = string & { code?: string; message: string };

export function readableError(err: Error): ReadableError {
  const code = (err as Partial<McpNodeError>).code;
  // A String object on purpose: the wrapper is what carries `code`.
  const text = new String(err.message) as unknown as ReadableError;
  // `message` too, for what reads done()'s error as an Error (Node-RED's onComplete hook).
  return Object.assign(text, { message: err.message }, code === undefined ? {} : { code });
}

/** The text of what readableError made, for the secret gate (which scrubs what is logged). */
export function isReadableError(value: unknown): value is ReadableError {
  return value instanceof String;
}

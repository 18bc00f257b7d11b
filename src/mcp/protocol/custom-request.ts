// Requests whose methods the SDK's types do not list (2025-11-25's tasks/get, tasks/result and
// tasks/cancel, the tasks extension's methods): the SDK's `request` takes them with a result schema
// of the caller's. The schema here checks nothing (each caller reads the answer field by field, as
// a lenient reader must) and only carries the type the caller expects.
import type { Client, RequestOptions, StandardSchemaV1 } from '@modelcontextprotocol/client';

/** A Standard Schema that passes any answer through, typed as `T`. */
function passThrough<T>(): StandardSchemaV1<unknown, T> {
  return { '~standard': { version: 1, vendor: 'node-red-contrib-mcp-gemini', validate: (value: unknown) => ({ value: value as T }) } };
}

/** Sends `method` with `params` and resolves with the answer's result as sent. */
export function customRequest<T>(client: Client, method: string, params: Record<string, unknown>, options: RequestOptions): Promise<T> {
  return client.request({ method, params }, passThrough<T>(), options);
}

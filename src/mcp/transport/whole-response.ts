// A reply already read whole, as the MCP SDK's HTTP transports use a `Response`: status, headers,
// url, text() and json(). Why not `new Response(text)`: Node's Response builds a web stream for
// every body, and a tool call's short JSON answer paid for two of them; this one keeps the text and
// makes a stream only if something asks for `body`.
const NULL_BODY = new Set([101, 204, 205, 304]);

export class WholeResponse {
  readonly type = 'basic';
  readonly redirected = false;
  bodyUsed = false;
  private stream: ReadableStream<Uint8Array> | null | undefined;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
    private readonly content: string,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.stream === undefined) this.stream = NULL_BODY.has(this.status) ? null : (new Response(this.content).body as ReadableStream<Uint8Array>);
    return this.stream;
  }

  text(): Promise<string> {
    this.bodyUsed = true;
    return Promise.resolve(NULL_BODY.has(this.status) ? '' : this.content);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = new TextEncoder().encode(await this.text());
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  clone(): WholeResponse {
    return new WholeResponse(this.status, this.statusText, new Headers(this.headers), this.url, this.content);
  }
}

/** Read as a fetch Response by the code that receives it. */
export const asResponse = (r: WholeResponse): Response => r as unknown as Response;

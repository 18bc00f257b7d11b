// What passes between the OTA address and whatever answers it (./ota-service.ts answers,
// ./ota-http.ts carries it over HTTP): plain types, so a listener can hold an answerer without
// depending on how it answers.

export interface OtaRequest {
  /** Header names in lower case (Node's IncomingMessage.headers). */
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (the firmware does not escape its JSON: read leniently). */
  body: string;
  /** The device's address as this server sees it (codes are limited per address). */
  remoteAddress?: string;
  /** True when the request came over https (then the WebSocket URL is wss://). */
  secure?: boolean;
}

export interface OtaAnswer {
  status: number;
  headers?: Record<string, string>;
  /** JSON answers are objects; plain answers strings. */
  body: Record<string, unknown> | string;
}

export interface OtaAnswerer {
  /** GET: what the address is for. */
  describe(): OtaAnswer;
  /** POST: the device's OTA check. */
  check(request: OtaRequest): OtaAnswer;
  /** POST …/activate: the activation poll. */
  activate(request: OtaRequest): OtaAnswer;
  /** The firmware image offered, as a file path; the only file the address serves. */
  firmwareFile?(): string | undefined;
}

// The PROXY protocol header a TCP balancer (nginx `proxy_protocol on`, HAProxy `send-proxy` or
// `send-proxy-v2`) sends first on each connection it passes on: it names the client's own address,
// which the connection itself no longer shows. The mqtt-gateway needs that address because a
// device's UDP audio comes from it directly, not through the balancer. Parsing is
// proxy-protocol-js's; this file only waits for the whole header and hands the rest on.
import { isIP, type Socket } from 'node:net';
import { ProxyProtocolIdentifier, ProxyProtocolVersion, V1BinaryProxyProtocol, V2ProxyProtocol } from 'proxy-protocol-js';

/** v1: "PROXY TCP4 <src> <dst> <sport> <dport>\r\n", at most 107 bytes (the protocol's limit). */
const V1_MAX = 107;
/** v2: 12-byte signature, version/command, family, 2-byte length, then the addresses. */
const V2_FIXED = 16;

export class ProxyHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyHeaderError';
  }
}

/**
 * Reads the header off `socket`; resolves with the client's address (the socket's own peer for a
 * v2 LOCAL header, a balancer's health check) once the header is complete. What followed it is put
 * back on the socket, paused, for the next reader. Rejects on a connection without a valid header.
 */
export function readProxyHeader(socket: Socket, timeoutMs = 5000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (err: Error | undefined, address?: string, rest?: Buffer) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      if (err) return reject(err);
      if (rest?.length) socket.unshift(rest);
      resolve(address!);
    };
    const timer = setTimeout(() => done(new ProxyHeaderError(`no PROXY protocol header within ${timeoutMs / 1000} s`)), timeoutMs);
    const onClose = () => done(new ProxyHeaderError('the connection closed before its PROXY protocol header'));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      try {
        const header = completeHeader(buffered);
        if (header === undefined) return;
        done(undefined, header.address ?? plain(socket.remoteAddress), buffered.subarray(header.length));
      } catch (err) {
        done(err as Error);
      }
    };
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

/** The header's length and address once `data` holds all of it; undefined while it is incomplete. */
function completeHeader(data: Buffer): { length: number; address?: string } | undefined {
  const version = ProxyProtocolIdentifier.identify(data.subarray(0, Math.min(data.length, V2_FIXED)));
  if (version === ProxyProtocolVersion.V1) {
    const end = data.indexOf('\r\n');
    if (end < 0) {
      if (data.length >= V1_MAX) throw new ProxyHeaderError('PROXY protocol v1 header longer than 107 bytes');
      return undefined;
    }
    // "PROXY UNKNOWN": the balancer could not tell (e.g. a unix socket client); keep the peer.
    if (data.subarray(0, end).toString('latin1').startsWith('PROXY UNKNOWN')) return { length: end + 2 };
    const parsed = parse(() => V1BinaryProxyProtocol.parse(data.subarray(0, end + 2)));
    const address = plain(parsed.source.ipAddress);
    // The address decides where UDP audio is accepted from: only a real IP will do.
    if (!isIP(address)) throw new ProxyHeaderError(`bad PROXY protocol header: "${address.slice(0, 40)}" is not an IP address`);
    return { length: end + 2, address };
  }
  if (version === ProxyProtocolVersion.V2) {
    if (data.length < V2_FIXED) return undefined;
    const length = V2_FIXED + data.readUInt16BE(14);
    if (data.length < length) return undefined;
    const parsed = parse(() => V2ProxyProtocol.parse(data.subarray(0, length)));
    const source = (parsed.proxyAddress as { sourceAddress?: { address?: number[] } }).sourceAddress?.address;
    return { length, address: source ? addressText(source) : undefined };
  }
  // Not a header yet: a prefix of either signature may still become one.
  if (isPrefix(data, 'PROXY ') || isPrefix(data, '\r\n\r\n\0\r\nQUIT\n')) return undefined;
  throw new ProxyHeaderError('the connection did not start with a PROXY protocol header (is the balancer set to send one?)');
}

function parse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new ProxyHeaderError(`bad PROXY protocol header: ${(err as Error).message}`);
  }
}

function isPrefix(data: Buffer, signature: string): boolean {
  const sig = Buffer.from(signature, 'latin1');
  return data.length < sig.length && sig.subarray(0, data.length).equals(data);
}

/** IPv4 as dotted quad; IPv6 from its 16 bytes (or 8 groups, as the parser may give them). */
function addressText(parts: number[]): string {
  if (parts.length === 4) return parts.join('.');
  const groups = parts.length === 16 ? Array.from({ length: 8 }, (_, i) => (parts[2 * i] << 8) | parts[2 * i + 1]) : parts;
  return plain(groups.map((g) => g.toString(16)).join(':'));
}

function plain(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:/, '');
}

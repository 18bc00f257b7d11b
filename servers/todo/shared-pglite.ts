// One owner per embedded-database folder. PGlite is a single-process database: two processes that
// open the same folder each see only their own writes, and whatever the one closing last flushes
// wins, so todos are lost silently (two todo servers on one Node-RED do exactly this when two
// examples are deployed). So the first process to open a folder owns it and answers queries for
// every other todo server on the same folder over a local socket; the others send their queries
// there and never open the folder. When the owner stops, the next query of another server makes
// that server the owner (after the old owner has flushed and closed the folder).
//
// The owner's address is named after the folder, so it is the lock itself: binding it is atomic.
// On Linux it is an abstract socket (no file, gone with the process), on Windows a named pipe
// (the same); elsewhere a socket file in the temp folder, removed when nobody answers on it.
// Any local process may connect to such an address, so owner and guest first prove to each other
// that they can read the folder's key file (HMAC over each other's nonce): a stranger can neither
// query the database nor pose as its owner.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createPgliteClient } from './pglite-client';
import { DatabaseError, type SqlClient } from './sql-client';

/** Where the owner of `dataDir` answers: derived from the folder's real path. */
export function ownerAddress(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  mkdirSync(dataDir, { recursive: true });
  const key = createHash('sha256')
    .update(realpathSync(resolve(dataDir)))
    .digest('hex')
    .slice(0, 24);
  if (platform === 'linux') return `\0mcp-gemini-todo-${key}`;
  if (platform === 'win32') return `\\\\.\\pipe\\mcp-gemini-todo-${key}`;
  return join(tmpdir(), `mcp-gemini-todo-${key}.sock`);
}

/** The folder's shared secret, created once (readable by its owner only) and kept across owners. */
function folderKey(dir: string): Buffer {
  const file = join(dir, '.mcp-gemini-share-key');
  try {
    writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

const proof = (key: Buffer, who: 'owner' | 'guest', nonce: string) => createHmac('sha256', key).update(`${who}:${nonce}`).digest('hex');
const sameProof = (a: unknown, b: string) => typeof a === 'string' && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Each line the peer sends, parsed; a line that is not JSON ends the connection. */
function onJsonLines<T>(socket: Socket, onMessage: (message: T) => void): void {
  createInterface({ input: socket }).on('line', (line) => {
    let message: T;
    try {
      message = JSON.parse(line) as T;
    } catch {
      return void socket.destroy();
    }
    onMessage(message);
  });
}

interface Request {
  id: number;
  sql: string;
  params: unknown[];
}
type Reply = { id: number; rows: unknown[] } | { id: number; error: string };

type Role =
  | { kind: 'owner'; db: SqlClient; server: Server; guests: Set<Socket> }
  | { kind: 'guest'; socket: Socket; pending: Map<number, { resolve(rows: unknown[]): void; reject(err: Error): void }> };

const ELECTION_ATTEMPTS = 20;

export function createSharedPgliteClient(dataDir: string, log: (line: string) => void = () => undefined): SqlClient {
  const dir = resolve(dataDir);
  let role: Role | undefined;
  let electing: Promise<Role> | undefined;
  let closed = false;
  let nextId = 1;

  const becomeOwner = (address: string): Promise<Role | 'taken'> =>
    new Promise((done, fail) => {
      const server = createServer();
      const guests = new Set<Socket>();
      const db = createPgliteClient(dir);
      const key = folderKey(dir);
      server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? done('taken') : fail(err)));
      server.on('connection', (socket) => serveGuest(socket, db, guests, key));
      server.listen(address, () => {
        server.removeAllListeners('error');
        server.on('error', (err) => log(`database owner socket: ${err.message}`));
        log(`owns the database folder ${dir}; other todo servers on it share this process`);
        done({ kind: 'owner', db, server, guests });
      });
    });

  const becomeGuest = (address: string): Promise<Role | 'nobody'> =>
    new Promise((done) => {
      const socket = createConnection(address);
      socket.once('error', () => done('nobody'));
      socket.once('connect', () => {
        const key = folderKey(dir);
        const nonce = randomBytes(16).toString('hex');
        socket.write(`${JSON.stringify({ hello: nonce })}\n`);
        const pending = new Map<number, { resolve(rows: unknown[]): void; reject(err: Error): void }>();
        const guest: Role = { kind: 'guest', socket, pending };
        let trusted = false;
        onJsonLines<Reply & { proof?: string; nonce?: string }>(socket, (reply) => {
          if (!trusted) {
            // The first line proves the owner can read the key; anything else is not our owner.
            if (!sameProof(reply.proof, proof(key, 'owner', nonce)) || typeof reply.nonce !== 'string') {
              log(`something answers for the database folder ${dir} without its key: not sharing with it`);
              socket.destroy();
              return done('nobody');
            }
            trusted = true;
            socket.write(`${JSON.stringify({ proof: proof(key, 'guest', reply.nonce) })}\n`);
            log(`shares the database folder ${dir} with the todo server that opened it first`);
            return done(guest);
          }
          const waiter = pending.get(reply.id);
          pending.delete(reply.id);
          if ('error' in reply) waiter?.reject(new DatabaseError(`Database query failed: ${reply.error}`));
          else waiter?.resolve(reply.rows);
        });
        socket.on('error', () => undefined); // 'close' follows
        socket.on('close', () => {
          if (!trusted) return done('nobody');
          if (role === guest) role = undefined; // the next query elects again
          for (const waiter of pending.values())
            waiter.reject(new DatabaseError('Database query failed: the todo server that owns the database stopped; retry'));
          pending.clear();
        });
      });
    });

  const elect = async (): Promise<Role> => {
    const address = ownerAddress(dir);
    for (let attempt = 0; attempt < ELECTION_ATTEMPTS; attempt++) {
      if (closed) throw new DatabaseError('the todo database has been closed');
      const owned = await becomeOwner(address);
      if (owned !== 'taken') return owned;
      const guest = await becomeGuest(address);
      if (guest !== 'nobody') return guest;
      // Bound but not answering: an owner that is closing (it closes its folder before its socket),
      // or on macOS a socket file left by a process that died. Wait a moment and try again.
      if (!address.startsWith('\0') && !address.startsWith('\\\\') && attempt > 2) rmSync(address, { force: true });
      await new Promise((r) => setTimeout(r, 100 * Math.min(attempt + 1, 5)));
    }
    throw new DatabaseError(`Database query failed: nobody answers for the database folder ${dir} and it cannot be taken over`);
  };

  const current = (): Promise<Role> => {
    if (role) return Promise.resolve(role);
    electing ??= elect().then(
      (r) => {
        electing = undefined;
        role = r;
        return r;
      },
      (err: Error) => {
        electing = undefined;
        throw err;
      },
    );
    return electing;
  };

  return {
    description: `pglite ${dir}`,
    async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
      const r = await current();
      if (r.kind === 'owner') return r.db.query<Row>(sql, params);
      const id = nextId++;
      return new Promise<Row[]>((resolve, reject) => {
        r.pending.set(id, { resolve: (rows) => resolve(rows as Row[]), reject });
        r.socket.write(`${JSON.stringify({ id, sql, params } satisfies Request)}\n`);
      });
    },
    async close() {
      closed = true;
      const r = role ?? (await electing?.catch(() => undefined));
      role = undefined;
      if (!r) return;
      if (r.kind === 'guest') return void r.socket.end();
      // The folder is flushed and closed before the address is given up: a guest that takes over
      // then opens a folder nobody writes to.
      await r.db.close();
      for (const socket of r.guests) socket.destroy();
      await new Promise<void>((done) => r.server.close(() => done()));
    },
  };
}

/** Answers one guest's queries, one JSON line each way, on the owner's own database, once it proved it can read the key. */
function serveGuest(socket: Socket, db: SqlClient, guests: Set<Socket>, key: Buffer): void {
  guests.add(socket);
  socket.on('close', () => guests.delete(socket));
  socket.on('error', () => undefined);
  const nonce = randomBytes(16).toString('hex');
  let stage: 'hello' | 'proof' | 'trusted' = 'hello';
  onJsonLines<Request & { hello?: string; proof?: string }>(socket, (request) => {
    if (stage === 'hello') {
      if (typeof request.hello !== 'string') return void socket.destroy();
      stage = 'proof';
      return void socket.write(`${JSON.stringify({ proof: proof(key, 'owner', request.hello), nonce })}\n`);
    }
    if (stage === 'proof') {
      if (!sameProof(request.proof, proof(key, 'guest', nonce))) return void socket.destroy();
      stage = 'trusted';
      return;
    }
    db.query(request.sql, request.params).then(
      (rows) => socket.write(`${JSON.stringify({ id: request.id, rows } satisfies Reply)}\n`),
      (err: Error) => socket.write(`${JSON.stringify({ id: request.id, error: err.message || String(err) } satisfies Reply)}\n`),
    );
  });
}

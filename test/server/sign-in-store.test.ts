// What sign-in keeps: the sealed file in the user directory (no token readable in it, a changed
// byte refuses to open, another secret cannot open it) and the store's bounds and durable kinds.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealedFile } from '../../src/server/oauth/sealed-file';
import { SignInStore, type StoreSnapshot } from '../../src/server/oauth/sign-in-store';
import { ClientApprovals } from '../../src/server/oauth/client-approvals';

describe('sign-in state: sealed in the user directory, bounded in memory', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sign-in-store-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the sealed file round-trips, shows no token, and refuses a changed byte or another secret', () => {
    const path = join(dir, 'state.json');
    const file = sealedFile<{ token: string }>(path, 'secret-1');
    file.write({ token: 'refresh-token-abcdef' });
    assert.deepEqual(file.read(), { token: 'refresh-token-abcdef' });
    assert.ok(!readFileSync(path, 'utf8').includes('refresh-token-abcdef'));
    assert.throws(() => sealedFile(path, 'secret-2').read());
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    const data = Buffer.from(doc.data, 'base64');
    data[0] ^= 1;
    writeFileSync(path, JSON.stringify({ ...doc, data: data.toString('base64') }));
    assert.throws(() => file.read());
  });

  it('keeps clients, grants and tokens across a restart, not sessions or interactions; a revoked grant takes its tokens', async () => {
    let snapshot: StoreSnapshot | undefined;
    const store = new SignInStore(undefined, (s) => (snapshot = s));
    const Adapter = store.adapter();
    await new Adapter('Client').upsert('c1', { client_id: 'c1' });
    await new Adapter('Grant').upsert('g1', { clientId: 'c1' }, 3600);
    await new Adapter('AccessToken').upsert('a1', { clientId: 'c1', grantId: 'g1' }, 3600);
    await new Adapter('Interaction').upsert('i1', { uid: 'u1' }, 600);
    store.close(); // writes what is pending
    assert.deepEqual(Object.keys(snapshot!).sort(), ['AccessToken', 'Client', 'Grant']);
    const again = new SignInStore(snapshot, () => undefined).adapter();
    assert.deepEqual(await new again('AccessToken').find('a1'), { clientId: 'c1', grantId: 'g1' });
    await new again('AccessToken').revokeByGrantId('g1');
    assert.equal(await new again('AccessToken').find('a1'), undefined);
  });

  it('approvals: codes come from an alphabet without look-alikes, requests are bounded and expire', () => {
    let clock = 0;
    const approvals = new ClientApprovals(
      undefined,
      () => undefined,
      () => clock,
    );
    for (let i = 0; i < 25; i++) approvals.ask(`r${i}`, `c${i}`, `client ${i}`, 'https://example.com/cb');
    const { pending } = approvals.list();
    assert.equal(pending.length, 20, 'at most 20 waiting: the oldest go');
    assert.ok(pending.every((p) => /^[A-HJ-NP-Z2-9]{6}$/.test(p.code)));
    assert.equal(pending[0].redirectHost, 'example.com');
    clock += 10 * 60_000 + 1;
    assert.equal(approvals.list().pending.length, 0, 'expired after ten minutes');
    assert.equal(approvals.decide('r24', 'X', 'approved').ok, false);
  });
});

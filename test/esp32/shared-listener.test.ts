// The listener's lifetime and its WebSocket port: opened by the first user, closed after the last
// (the port is free again), a port of its own for the Home Assistant add-on, and the one token
// comparison every transport uses.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { SharedDeviceListener } from '../../src/esp32/provider/shared-listener';
import { tokenAccepted } from '../../src/esp32/devices/token-check';
import { freePort } from '../peers/free-port';
import { ottoRobot, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { DEVICE_TOKEN, OTTO_ID, rejection } from './helpers';

async function portIsFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('esp32 shared listener', () => {
  it('listens from the first user on and frees its port after the last user leaves', async () => {
    const port = await freePort();
    const shared = new SharedDeviceListener('own port', { transport: 'websocket', port, bind: '127.0.0.1', tokens: [DEVICE_TOKEN] });
    const a = {};
    const b = {};
    assert.deepEqual(shared.status(), { kind: 'idle' });
    assert.ok(await portIsFree(port), 'nothing listens before the first user');
    await shared.register(a);
    await shared.register(b);
    assert.equal(shared.listener?.port, port);
    const device = await XiaozhiWsDevice.connect({ url: `ws://127.0.0.1:${port}/xiaozhi/v1/`, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    await device.serverHello;
    await shared.deregister(a);
    assert.ok(shared.listener, 'still open for the second user');
    assert.ok(!(await portIsFree(port)));
    await shared.deregister(b);
    assert.equal((await device.closed).code, 1001);
    assert.equal(shared.listener, undefined);
    assert.ok(await portIsFree(port), 'the port is free after the last user');
    // a new first user opens it again (read through a function: the assert above narrowed the property)
    await shared.register(a);
    const reopened = () => shared.listener;
    assert.equal(reopened()?.port, port);
    await shared.close();
    assert.ok(await portIsFree(port));
  });

  it('own port: other paths get 404, plain HTTP gets 426, devices need the token', async () => {
    const port = await freePort();
    const shared = new SharedDeviceListener('own port', { transport: 'websocket', port, bind: '127.0.0.1', tokens: [DEVICE_TOKEN] });
    await shared.register({});
    try {
      const res = await fetch(`http://127.0.0.1:${port}/xiaozhi/v1/`);
      assert.equal(res.status, 426);
      const other = await rejection(
        XiaozhiWsDevice.connect({ url: `ws://127.0.0.1:${port}/other/`, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() }),
      );
      assert.equal(other.status, 404);
      const noToken = await rejection(XiaozhiWsDevice.connect({ url: `ws://127.0.0.1:${port}/xiaozhi/v1/`, deviceId: OTTO_ID, fixture: ottoRobot() }));
      assert.equal(noToken.status, 401);
    } finally {
      await shared.close();
    }
  });

  it('a port in use is a failed status naming the cause, and the next attempt can listen', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as import('node:net').AddressInfo).port;
    const shared = new SharedDeviceListener('busy', { transport: 'websocket', port, bind: '127.0.0.1', anonymous: true });
    const user = {};
    await shared.register(user);
    const status = shared.status();
    assert.equal(status.kind, 'failed');
    assert.match((status as { reason: string }).reason, /EADDRINUSE/);
    assert.equal(shared.listener, undefined);
    await shared.deregister(user);
    await new Promise((r) => blocker.close(r));
    await shared.register(user);
    assert.deepEqual(shared.status(), { kind: 'listening', devices: 0, access: 'anonymous' });
    await shared.close();
  });

  it('unusable settings are a failed status for every user, and nothing listens', async () => {
    const shared = new SharedDeviceListener('bad', new Error('the mqtt transport needs a broker URL'));
    await shared.register({});
    assert.deepEqual(shared.status(), { kind: 'failed', reason: 'the mqtt transport needs a broker URL' });
    assert.equal(shared.listener, undefined);
    await shared.close();
  });

  it('tokenAccepted: equal tokens only, any length, never an empty one', () => {
    assert.equal(tokenAccepted('abc', ['x', 'abc']), true);
    assert.equal(tokenAccepted(Buffer.from('abc'), ['abc']), true);
    assert.equal(tokenAccepted('abcd', ['abc']), false);
    assert.equal(tokenAccepted('ab', ['abc']), false);
    assert.equal(tokenAccepted('', ['']), false);
    assert.equal(tokenAccepted(undefined, ['abc']), false);
    assert.equal(tokenAccepted('abc', []), false);
  });
});

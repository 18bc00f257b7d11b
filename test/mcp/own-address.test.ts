// A server URL that is only a path is this Node-RED itself, at whatever address it was started on.
import assert from 'node:assert/strict';
import { resolveOwnUrl } from '../../src/mcp/own-address';

describe('mcp-server: a URL that is only a path means this Node-RED', () => {
  it('uses the port, the listening host and httpNodeRoot Node-RED was started with', () => {
    assert.equal(resolveOwnUrl('/home-mcp', { port: 1881 }), 'http://127.0.0.1:1881/home-mcp');
    assert.equal(resolveOwnUrl('/home-mcp', { port: 1880, host: '0.0.0.0', nodeRoot: '/api/' }), 'http://127.0.0.1:1880/api/home-mcp');
    assert.equal(resolveOwnUrl('/mcp', { port: 8080, host: '192.168.1.5', https: true }), 'https://192.168.1.5:8080/mcp');
    assert.equal(resolveOwnUrl('/mcp', { port: 1880, host: '::1' }), 'http://[::1]:1880/mcp');
  });

  it('leaves full URLs, and protocol-relative ones, as they are', () => {
    assert.equal(resolveOwnUrl('http://homeassistant.local:8123/api/mcp', { port: 1880 }), 'http://homeassistant.local:8123/api/mcp');
    assert.equal(resolveOwnUrl('//elsewhere/mcp', { port: 1880 }), '//elsewhere/mcp');
  });
});

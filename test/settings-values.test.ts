// One reader for list settings (one entry per line, or an array in hand-written flow JSON), used by
// the endpoint, the ESP32 listener and the flow nodes alike.
import assert from 'node:assert/strict';
import { lines } from '../src/settings-values';
import { endpointSettings } from '../src/server/settings';
import { parseListenerSettings } from '../src/esp32/listener-settings';
import { lines as nodeLines } from '../nodes/shared/input-handler';
import { flowToolSettings } from '../src/server/flows/flow-tool';

describe('lines: list settings', () => {
  it('reads newline text (LF or CRLF) and arrays, trimming and dropping blanks; anything else is empty', () => {
    assert.deepEqual(lines(' a \r\n\r\nb\n  \nc'), ['a', 'b', 'c']);
    assert.deepEqual(lines([' a', 2, '', ' ']), ['a', '2']);
    assert.deepEqual(lines(undefined), []);
    assert.deepEqual(lines(42), []);
    assert.equal(nodeLines, lines, 'the node adapters use the engine reader');
  });

  it('gives the endpoint roots and the listener allow list the same entries', () => {
    const text = '/home\r\n\r\n /garden \n';
    assert.deepEqual(endpointSettings({ roots: text }).roots, ['/home', '/garden']);
    assert.equal(parseListenerSettings({ allow: 'AA:BB:CC:DD:EE:01\r\n\r\n aa:bb:cc:dd:ee:02 ' }).allow?.length, 2);
  });

  it('reads a flow tool subject as an object-graph path: "home//bedroom/" is "/home/bedroom"', () => {
    assert.equal(flowToolSettings({ name: 'set', subject: ' home//bedroom/ ' }).subject, '/home/bedroom');
    assert.equal(flowToolSettings({ name: 'set', subject: '/' }).subject, '/');
  });
});

// SDK errors are recognised by the SDK's own SdkErrorCode values, not by their message text.
import assert from 'node:assert/strict';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { connectionError, isConnectionLost } from '../../src/mcp/connection-errors';

describe('connection-errors: SDK error codes', () => {
  it('reads SdkErrorCode.RequestTimeout as a timeout naming the configured seconds', () => {
    const error = connectionError('srv', new SdkError(SdkErrorCode.RequestTimeout, 'no reply'), 5000);
    assert.equal(error.code, 'TIMEOUT');
    assert.equal(error.message, 'srv: no answer within 5 s (request timed out)');
  });

  it('reads closed, not connected and failed sends as a lost connection, other SDK codes not', () => {
    for (const code of [SdkErrorCode.ConnectionClosed, SdkErrorCode.NotConnected, SdkErrorCode.SendFailed]) {
      assert.equal(isConnectionLost(new SdkError(code, 'gone')), true, code);
    }
    assert.equal(isConnectionLost(new SdkError(SdkErrorCode.InvalidResult, 'odd')), false);
  });
});

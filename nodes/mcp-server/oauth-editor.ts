// auth "oauth": the Authorize button signs in through the server's own page in a new tab; the
// redirect comes back to our admin route, which keeps the tokens (the editor never sees them).
import { getJson, postJson } from '../shared/editor/requests';
import { formValues } from '../shared/editor/form-values';
import type { DialogText } from '../shared/editor/register';
import { SERVER_SETTINGS } from '../../src/mcp/settings/server-settings-declaration';

interface OAuthStatus {
  signedIn: boolean;
  expiresAt?: number;
}

const SIGN_IN_WAIT_MS = 10 * 60000;

function updateAuthRows() {
  const t = $('#node-config-input-transport').val();
  const http = t === 'http' || t === 'sse';
  const oauth = $('#node-config-input-auth').val() === 'oauth';
  $('.mcp-server-row-auth').toggle(http);
  $('.mcp-server-row-oauth').toggle(http && oauth);
  $('.mcp-server-row-token').toggle(http && !oauth);
}

export function prepareOAuth(node: { id: string; _: DialogText }): void {
  if (!$('#node-config-input-auth').val()) $('#node-config-input-auth').val('token');
  $('#node-config-input-transport, #node-config-input-auth').on('change', updateAuthRows);
  updateAuthRows();
  const out = $('#node-config-mcp-oauth-result');
  function show(cls: string, text: string) {
    out.removeClass('mcp-ok mcp-fail').addClass(cls).text(text);
  }
  function showStatus(r: OAuthStatus) {
    if (!r.signedIn) return show('', node._('mcp-server.oauth.notSignedIn'));
    show(
      'mcp-ok',
      r.expiresAt ? node._('mcp-server.oauth.signedInUntil', { time: new Date(r.expiresAt).toLocaleTimeString() }) : node._('mcp-server.oauth.signedIn'),
    );
  }
  function status(done?: (r: OAuthStatus) => void) {
    getJson<OAuthStatus>('mcp-server/oauth/' + encodeURIComponent(node.id) + '/status', { url: $('#node-config-input-url').val() }, function (err, r) {
      if (err || !r) return; // no status to show: the Authorize button still works
      showStatus(r);
      if (done) done(r);
    });
  }
  status();
  $('#node-config-mcp-oauth-authorize').on('click', function (e) {
    e.preventDefault();
    if (!$('#node-config-input-url').val()) return show('mcp-fail', node._('mcp-server.oauth.needsUrl'));
    // Opened inside the click, so a popup blocker lets it through; pointed at the sign-in below.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    show('', node._('mcp-server.oauth.opening'));
    const body = {
      id: node.id,
      config: { ...formValues(SERVER_SETTINGS, '#node-config-input-'), auth: 'oauth' },
      clientId: $('#node-config-input-clientId').val(),
      clientSecret: $('#node-config-input-clientSecret').val(),
      redirectUrl: new URL('mcp-server/oauth/callback', location.href).href,
    };
    postJson<{ authorizationUrl: string }>('mcp-server/oauth/start', body, function (err, r) {
      if (err || !r) {
        if (tab) tab.close();
        return show('mcp-fail', node._('mcp-server.oauth.failed', { error: err || '' }));
      }
      if (tab) tab.location.href = r.authorizationUrl;
      else window.open(r.authorizationUrl, '_blank', 'noopener');
      show('', node._('mcp-server.oauth.waiting'));
      const until = Date.now() + SIGN_IN_WAIT_MS;
      (function poll() {
        if (!$('#node-config-mcp-oauth-result').length) return; // dialog closed
        if (Date.now() > until) return show('mcp-fail', node._('mcp-server.oauth.timedOut'));
        status(function (s) {
          if (!s.signedIn) setTimeout(poll, 1000);
        });
      })();
    });
  });
}

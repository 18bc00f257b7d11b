// "Server card": reads an MCP Server Card (or a site's catalog of cards) through POST
// mcp-server/server-card and fills the dialog from the one a person picks: transport, URL, name,
// and Auth set to a token when the card says a bearer is required (the token itself stays the
// person's to type; a card never carries one).
import { postJson } from '../shared/editor/requests';
import type { DialogText } from '../shared/editor/register';
import type { CardChoice } from '../../src/mcp/settings/server-card-reader';

export function prepareServerCard(node: { _: DialogText }): void {
  const out = $('#node-config-mcp-card-result');
  $('#node-config-mcp-card-toggle').on('click', function (e) {
    e.preventDefault();
    $('#node-config-mcp-card').toggle();
  });
  function fill(card: CardChoice) {
    $('#node-config-input-transport').val(card.transport).trigger('change');
    $('#node-config-input-url').val(card.url).trigger('change');
    if (!$('#node-config-input-name').val()) $('#node-config-input-name').val(card.title);
    if (card.bearer) $('#node-config-input-auth').val('token').trigger('change');
    const more = card.bearer ? node._('mcp-server.card.needsToken') : '';
    out.removeClass('mcp-fail').text(node._('mcp-server.card.chosen', { card: card.cardUrl, more: more }));
  }
  $('#node-config-mcp-card-read').on('click', function (e) {
    e.preventDefault();
    out.removeClass('mcp-fail').text(node._('mcp-server.card.running'));
    postJson<{ ok: boolean; error?: string; cards?: CardChoice[] }>('mcp-server/server-card', { url: $('#node-config-mcp-card-url').val() }, function (err, r) {
      out.empty();
      if (err || !r || !r.ok || !r.cards) {
        out.addClass('mcp-fail').text(node._('mcp-server.card.failed', { error: err || (r && r.error) || '' }));
        return;
      }
      if (r.cards.length === 1) return fill(r.cards[0]);
      const list = $('<ul style="margin:4px 0 0 16px"></ul>');
      r.cards.forEach(function (card) {
        const link = $('<a href="#" class="mcp-card-choice"></a>').text(card.title + ' (' + card.url + ')');
        link.on('click', function (ev) {
          ev.preventDefault();
          fill(card);
        });
        list.append($('<li></li>').append(link));
      });
      out.append($('<div></div>').text(node._('mcp-server.card.found', { count: r.cards.length })), list);
    });
  });
}

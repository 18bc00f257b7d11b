// The ha-assist dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads). The pipeline
// list comes from the deployed server (GET esp32-listener/assist/pipelines), as in the listener's
// Assist settings; a saved pipeline stays even when it is not listed.
import { registerDialog } from '../shared/editor/register';
import { HOME_ASSISTANT_FAMILY } from '../shared/editor/families';
import { pipelinePicker } from '../shared/editor/assist-pipelines';
import { SETTINGS } from './settings';

registerDialog('ha-assist', {
  ...HOME_ASSISTANT_FAMILY,
  settings: SETTINGS,
  checks: {
    timeout: function (v: unknown) {
      return v === '' || v === undefined || (Number(v) > 0 && Number(v) <= 300);
    },
  },
  inputs: 1,
  outputs: 1,
  icon: 'ha-assist.svg',
  paletteLabel: 'ask home assistant',
  label: function () {
    return this.name || 'ask home assistant';
  },
  labelStyle: function () {
    return this.name ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const node = this;
    const picker = pipelinePicker($('#node-input-pipeline'), $('#ha-assist-pipelines-result'), node.pipeline || '', function (key, vars) {
      return node._('ha-assist.editor.' + key, vars);
    });
    function loadPipelines(again?: boolean) {
      picker.load($('#node-input-server').val() as string, again);
    }
    $('#node-input-server').on('change', () => loadPipelines());
    $('#ha-assist-refresh').on('click', function (e) {
      e.preventDefault();
      loadPipelines(true);
    });
  },
});

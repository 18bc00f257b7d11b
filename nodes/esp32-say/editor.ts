// The esp32-say dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { ESP32_FAMILY } from '../shared/editor/families';
import { CREDENTIALS, SETTINGS } from './settings';
registerDialog('esp32-say', {
  ...ESP32_FAMILY,
  settings: SETTINGS,
  credentials: CREDENTIALS,
  inputs: 1,
  outputs: 1,
  align: 'right',
  icon: 'esp32-say.svg',
  paletteLabel: 'xiaozhi say', // "xiaozhi" and (by its type) "esp32" both find it in the palette
  label: function () {
    return this.name || (this.deviceId ? 'say to ' + this.deviceId : 'xiaozhi say');
  },
  labelStyle: function () {
    return this.name ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const tts = this.tts || {};
    $('#node-input-ttsModel').val(tts.model || '');
    $('#node-input-ttsVoice').val(tts.voice || '');
  },
  oneditsave: function () {
    this.tts = {
      provider: 'gemini',
      model: String($('#node-input-ttsModel').val() ?? '').trim(),
      voice: String($('#node-input-ttsVoice').val() ?? '').trim(),
    };
  },
});

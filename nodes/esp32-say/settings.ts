// esp32-say's settings, declared once (src/settings-declaration.ts): the dialog's defaults and credentials and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  name: { value: '' },
  listener: { value: '', type: 'esp32-listener' },
  deviceId: { value: '' },
  /** Filled from the tts-model and tts-voice fields by the dialog's code. */
  tts: { value: { provider: 'gemini', model: '', voice: '' }, form: false },
  baseUrl: { value: '' },
} as const;

export const CREDENTIALS = {
  apiKey: { type: 'password' },
} as const;

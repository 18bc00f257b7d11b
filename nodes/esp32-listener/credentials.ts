// The esp32-listener's credentials, declared once for the runtime (index.ts) and the dialog (editor.ts).
// Plain data with no imports: the dialog's bundle includes this file too.
export const LISTENER_CREDENTIALS = {
  tokens: { type: 'password' },
  username: { type: 'text' },
  password: { type: 'password' },
  visionToken: { type: 'password' },
  /** Gemini Live's API key (voice "live"). */
  apiKey: { type: 'password' },
} as const;

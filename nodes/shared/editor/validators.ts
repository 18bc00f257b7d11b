// Field checks several dialogs share.

/** A timeout in seconds: blank (the default applies) or a positive number. */
export const TIMEOUT_CHECK = (v: unknown) => v === '' || v === undefined || Number(v) > 0;
/** The mcp-server's largest reply in MB (the runtime refuses more than 256: src/mcp/settings/settings.ts). */
export const REPLY_MB_CHECK = (v: unknown) => v === '' || v === undefined || (Number(v) > 0 && Number(v) <= 256);

// Field checks several dialogs share.

/** A timeout in seconds: blank (the default applies) or a positive number. */
export const TIMEOUT_CHECK = (v: unknown) => v === '' || v === undefined || Number(v) > 0;

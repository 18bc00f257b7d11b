// The few styles every dialog of this package uses, put into the editor page once (whichever node
// registers first). The hint line under a field sits where the field starts, past the editor's
// 100 px labels; a dialog with wider labels moves it (gemini-agent's editor.html).
const STYLE_ID = 'mcp-gemini-shared-styles';

const CSS = `.mcp-gemini-hint { margin: 4px 0 0 104px; font-size: 0.85em; opacity: 0.8; }`;

export function addSharedStyles(): void {
  if (typeof document === 'undefined' || document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  document.head.appendChild(style);
}

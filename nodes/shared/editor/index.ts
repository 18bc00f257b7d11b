// What the dialogs share, bundled into each dialog by the build (no global, no extra request).
export { getJson, parseObject, postJson, xhrError } from './requests';
export { settingsOf } from './server-settings';
export { loadTools, serverDropdown, suggestTools } from './tool-lists';

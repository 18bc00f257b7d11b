// The editor page's globals, typed: Node-RED's `RED` (from @types/node-red__editor-client) and jQuery.
import type editorClient from '@node-red/editor-client';

declare global {
  const RED: editorClient.RED;
}

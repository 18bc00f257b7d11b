// Types of scripts/sdk-patches.mjs, for the spec that holds each patch to the SDK's own behaviour.
export interface SdkPatch {
  name: string;
  files: RegExp;
  find: string;
  replace: string;
  count: number;
}
export const SDK_PATCHES: SdkPatch[];
export function sdkPatchPlugin(applied?: Map<string, number>): unknown;

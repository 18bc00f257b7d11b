// Types of scripts/sdk-patches.mjs, for the spec that holds each patch to the SDK's own behaviour.
export interface SdkPatch {
  name: string;
  files: RegExp;
  find: string;
  replace: string;
  /** how often `find` occurs: in every matching file, or per package and file kind ('client/index', 'server/src', …) */
  count: number | Record<string, number>;
  /** code put before the patched file's own (a require from the engine folder the replacement uses) */
  prepend?: (engine: string) => string;
  /** the upstream change to the SDK after which this patch finds nothing and can be deleted */
  exit: string;
}
export const SDK_PATCHES: SdkPatch[];
export function expectedCount(patch: SdkPatch, file: string): number;
export function sdkPatchPlugin(applied?: Map<string, number>, engine?: string): unknown;

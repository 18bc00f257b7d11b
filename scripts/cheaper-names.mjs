// The bundles keep names (esbuild's keepNames) so that what esbuild renamed while bundling still says
// its own name: `ApiError2` must still be ApiError, because errors take their name from
// `this.constructor.name`, and stack traces should read as the source does. esbuild does this with a
// helper, `__name(fn, "name")`, an Object.defineProperty on the function. For declarations and
// classes that runs once. But it also wraps every arrow function that sits where JavaScript would
// name it (`const onProgress = (p) => …`, `{ onAbort: () => … }`), and those closures are made anew
// each time the function around them runs: in one tool call some fifteen of ours and the SDK's, about
// 10 µs of a 0.25 ms stdio call (bench/call-overhead, docs/benchmarks.md).
// The helper below names what has a name of its own or a prototype (declarations, classes, function
// expressions) as before, and leaves a bare arrow or async closure, which has neither, unnamed: its
// stack frame then shows file, line and column instead of the variable's name.
const NAME_HELPER = /var __name ?= ?\(target, ?value\) ?=> ?__defProp\(target, ?"name", ?\{ ?value, ?configurable: ?!0 ?\}\);/g;
const CHEAPER_NAME_HELPER =
  'var __name = (target, value) => target.name === "" && !("prototype" in target) ? target : __defProp(target, "name", { value, configurable: !0 });';

/** `code` (an esbuild bundle with keepNames) with the cheaper helper; throws unless esbuild's is there once. */
export function cheaperNames(code, file) {
  const found = code.match(NAME_HELPER)?.length ?? 0;
  if (found !== 1) throw new Error(`${file}: expected esbuild's __name helper once, found it ${found} times: look at scripts/cheaper-names.mjs`);
  return code.replace(NAME_HELPER, CHEAPER_NAME_HELPER);
}

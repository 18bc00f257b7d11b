// RequestHead and JsonAnswer stand in for undici's Request and Response with only the few fields a
// hot path reads. Everything else the web class has (getters such as `body`, methods such as
// `clone()`) is answered by a real object the stand-in makes on first use; this puts those answers
// on the stand-in's prototype and makes it `instanceof` the web class.
export function answerTheRestWith<T extends object>(
  standIn: { prototype: T },
  web: { prototype: object },
  own: readonly string[],
  full: (standIn: T) => object,
): void {
  const skip = new Set([...own, 'constructor']);
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(web.prototype))) {
    if (skip.has(name)) continue;
    if (descriptor.get) {
      Object.defineProperty(standIn.prototype, name, {
        get(this: T) {
          return Reflect.get(web.prototype, name, full(this));
        },
        configurable: true,
      });
    } else if (typeof descriptor.value === 'function') {
      const method = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(standIn.prototype, name, {
        value(this: T, ...args: unknown[]) {
          return method.apply(full(this), args);
        },
        configurable: true,
        writable: true,
      });
    }
  }
  Object.setPrototypeOf(standIn.prototype, web.prototype);
}

// oidc-provider ships no types; ./oidc-provider-face.ts types the part this package and its test peers use.
declare module 'oidc-provider';

// Types of scripts/npm-readme.mjs, for the spec that checks the README the npm page shows.
export function packageBase(pkg: { name: string; version: string }): string;
export function packagedPath(href: string): { path: string; hash: string } | undefined;
export function npmReadme(text: string, pkg: { name: string; version: string; repository?: unknown }): string;

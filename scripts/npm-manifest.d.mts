export function publishedManifest(pkg: Record<string, unknown>): Record<string, unknown>;

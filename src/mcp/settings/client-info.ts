// How this package introduces itself in `initialize` (servers log it; Home Assistant shows it).
// Name and version come from package.json, so a release cannot leave a stale version behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './module-specifier';

const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { name: string; version: string };

export const CLIENT_INFO = { name: pkg.name, version: pkg.version };

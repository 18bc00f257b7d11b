// What a stdio server's process is given as its environment. By default only the short list the MCP
// SDK considers safe (PATH, HOME, USER, SHELL, TERM, LOGNAME on POSIX) plus the node's own entries:
// a server started from a flow should not see Node-RED's secrets. Python servers often need more
// (VIRTUAL_ENV, PYTHONPATH, proxies, locale), so "Inherit Node-RED's environment" passes everything
// except what is never passed: the names below, any name that looks like a secret, any value that
// carries credentials in a URL, and any value the secret scrubber knows. The node's own entries
// are always passed, so a server that needs a token gets it by name, on purpose.
import { getDefaultEnvironment } from '../protocol/sdk';
import { secrets } from '../../secrets';

/** Never inherited, whatever they are called: Node-RED's, the add-on's and this package's own secrets. */
export const NEVER_INHERITED = ['NODE_RED_CREDENTIAL_SECRET', 'SUPERVISOR_TOKEN', 'HASSIO_TOKEN', 'GOOGLE_API_KEY', 'GEMINI_API_KEY', 'MCP_TOKEN', 'HA_TOKEN'];
/** A name that looks like a secret is not inherited either. */
export const SECRET_LIKE_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|PRIVATE_?KEY|AUTH/i;
const CREDENTIALS_IN_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

function inheritable(name: string, value: string): boolean {
  if (NEVER_INHERITED.includes(name.toUpperCase()) || SECRET_LIKE_NAME.test(name)) return false;
  return !CREDENTIALS_IN_URL.test(value) && secrets.scrub(value) === value;
}

export function childEnvironment(own: Record<string, string> | undefined, inherit: boolean, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const base: Record<string, string> = {};
  if (inherit) {
    for (const [name, value] of Object.entries(parent)) if (value !== undefined && inheritable(name, value)) base[name] = value;
  } else {
    Object.assign(base, getDefaultEnvironment());
  }
  return { ...base, ...own };
}

/** For an error a person can act on: which variables the server got (names only, never values). */
export function describeChildEnvironment(env: Record<string, string>, inherited: boolean): string {
  const names = Object.keys(env).sort();
  const shown = names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ');
  return inherited
    ? `the server got Node-RED's environment without its secrets (${shown})`
    : `the server got only ${shown || 'no variables'}; if it needs more (VIRTUAL_ENV, PYTHONPATH, a proxy), add them under Environment or tick "Inherit Node-RED's environment"`;
}

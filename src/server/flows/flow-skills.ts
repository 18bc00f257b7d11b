// Skills a flow offers (`mcp-skill`): instructions, and files beside them, that teach a model how
// this endpoint's tools are meant to be used (MCP's Skills extension, io.modelcontextprotocol/skills).
// A skill is a folder: `skill://<name>/SKILL.md` (its frontmatter names and describes it, the
// instructions follow) and any further files under the same root. The SDK's `skillEntry` builds
// each entry with its SHA-256 digests and sizes and checks the extension's rules (a name of
// lowercase letters, digits and single hyphens, matching its folder); clients verify every file
// they read against those digests. Throws with what to fix.
import { skillEntry, type Skill } from '@modelcontextprotocol/server/ext/skills';
import { FlowRegistry } from './flow-registry';
import { textSetting } from '../../settings-values';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILL_SCHEME = 'skill://';
/** What one skill may hold in all: the instructions of a house, not a library. */
export const SKILL_MAX_BYTES = 1024 * 1024;

export interface FlowSkill {
  owner: string;
  name: string;
  /** The entry skills/list and skills/get serve (uri, frontmatter, resources with digests). */
  definition: Skill;
  /** Each file's text by its skill:// URI. */
  files: ReadonlyMap<string, string>;
}

export interface SkillFileSetting {
  path: string;
  text: string;
}

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const PATH = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** The `files` setting: `[{path, text}]`, or its JSON text as the dialog saves it. */
export function skillFiles(value: unknown): SkillFileSetting[] {
  if (value === undefined || value === null || value === '') return [];
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch (err) {
      throw new Error(`files are not valid JSON (${(err as Error).message})`, { cause: err });
    }
  }
  if (!Array.isArray(list)) throw new Error('files must be a list of {path, text}');
  const seen = new Set<string>();
  return list.map((item: unknown) => {
    const { path, text } = (item ?? {}) as { path?: unknown; text?: unknown };
    if (typeof path !== 'string' || !PATH.test(path) || path.split('/').some((s) => s === '.' || s === '..'))
      throw new Error(`file path "${String(path ?? '')}" must be a relative path of letters, digits, ".", "_", "-" and "/" (e.g. references/rooms.md)`);
    if (path === 'SKILL.md') throw new Error('a file named SKILL.md is the skill itself: write its instructions in Text');
    if (typeof text !== 'string') throw new Error(`file "${path}" has no text`);
    if (seen.has(path)) throw new Error(`file "${path}" is listed twice`);
    seen.add(path);
    return { path, text };
  });
}

/** The frontmatter as YAML: the description quoted, so a colon or a `#` in it stays text. */
function skillMarkdown(name: string, description: string, text: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${text}\n`;
}

/** A node's settings as a served skill. */
export async function flowSkill(owner: string, def: Record<string, unknown>): Promise<FlowSkill> {
  const name = (typeof def.name === 'string' && textSetting(def.name)) || '';
  if (!NAME.test(name) || name.length > 64) throw new Error(`skill name "${name}" must be 1-64 lowercase letters, digits and single hyphens (e.g. lamp-care)`);
  const description = ((typeof def.description === 'string' && textSetting(def.description)) || '').replace(/\s+/g, ' ');
  if (!description) throw new Error(`skill "${name}" needs a description: clients show it when a person or a model picks skills`);
  if (description.length > 1024) throw new Error(`skill "${name}": the description is ${description.length} characters; keep it under 1,024`);
  const text = typeof def.text === 'string' ? def.text.trim() : '';
  if (!text) throw new Error(`skill "${name}" has no text: write its instructions (Markdown)`);
  const files: Record<string, string> = { 'SKILL.md': skillMarkdown(name, description, text) };
  for (const f of skillFiles(def.files)) files[f.path] = f.text;
  const bytes = Object.values(files).reduce((n, t) => n + Buffer.byteLength(t), 0);
  if (bytes > SKILL_MAX_BYTES) throw new Error(`skill "${name}" holds ${bytes} bytes; a skill may hold at most ${SKILL_MAX_BYTES}`);
  let definition: Skill;
  try {
    definition = await skillEntry(name, files);
  } catch (err) {
    const problems = (err as { problems?: { message: string }[] }).problems;
    throw new Error(problems?.length ? problems.map((p) => p.message).join('; ') : (err as Error).message, { cause: err });
  }
  const byUri = new Map(Object.entries(files).map(([path, t]) => [`${SKILL_SCHEME}${name}/${path}`, t]));
  return { owner, name, definition, files: byUri };
}

/**
 * The skills flows offer on one endpoint, by name. A skill's entry is built asynchronously (its
 * digests), so a deploy's announcement waits for the skills being built: announced before them, a
 * redeployed skill would look removed and then added again.
 */
export class SkillRegistry extends FlowRegistry<FlowSkill> {
  private readonly building = new Set<Promise<unknown>>();

  constructor() {
    super((s) => s.name);
  }

  private last: Promise<unknown> = Promise.resolve();

  /**
   * Tracks a skill being built until it settles. The returned promise settles after every skill
   * tracked before it, so skills register in the order their nodes started: of two nodes with one
   * name, the first keeps it, as with tools and prompts.
   */
  track<T>(build: Promise<T>): Promise<T> {
    // A skill that fails at once is handled through inOrder, later: say so now, or Node reports it unhandled.
    build.catch(() => undefined);
    const inOrder = this.last.then(() => build);
    this.last = inOrder.catch(() => undefined);
    this.building.add(inOrder);
    const done = () => void this.building.delete(inOrder);
    inOrder.then(done, done);
    return inOrder;
  }

  /** Resolves once every skill being built now has settled (never rejects). */
  async built(): Promise<void> {
    await Promise.allSettled([...this.building]);
  }

  /** One file's text by its skill:// URI (undefined: no skill serves it). */
  file(uri: string): string | undefined {
    if (!uri.startsWith(SKILL_SCHEME)) return undefined;
    const name = uri.slice(SKILL_SCHEME.length).split('/')[0]!;
    return this.get(name)?.files.get(uri);
  }

  /** The skill whose SKILL.md is at `uri`. */
  byUri(uri: string): FlowSkill | undefined {
    return this.all().find((s) => s.definition.uri === uri);
  }
}

// What servers add to the agent's system instruction. A server prompt (Home Assistant's `Assist`: the
// live instruction HA gives its own assistants, with the exposed areas and devices), fetched for
// every request because the text changes with the home, comes first. Skills a server row names
// (MCP's Skills extension) come next: the server's skills are listed, each chosen SKILL.md is read and
// verified against its digest (src/mcp/session-skills.ts), and read again only when its digest
// changes. What cannot be used (no such skill, a server without skills, a file that fails its
// digest) is left out and said once as a warning: the request still runs. The node's own
// instruction comes last.
import { McpNodeError, errorMessage } from '../errors';
import { promptText, promptsAndResources } from '../mcp/prompts-resources';
import type { ToolProvider } from '../mcp/call/tool-provider';
import { SkillRefused, skillsOf } from '../mcp/session-skills';

export interface SystemPromptSource {
  provider: ToolProvider;
  name: string;
  arguments?: Record<string, unknown>;
}

export async function systemInstructionWithPrompt(source: SystemPromptSource | undefined, own: string | undefined): Promise<string | undefined> {
  if (!source) return own;
  let text: string;
  try {
    text = promptText(await promptsAndResources(source.provider).getPrompt(source.name, source.arguments ?? {}));
  } catch (err) {
    const who = source.provider.identity().name || source.provider.identity().id;
    throw new McpNodeError(
      `Could not fetch the system prompt "${source.name}" from ${who}: ${errorMessage(err)}. Check the server, or clear System prompt in the node`,
      'system prompt failed',
      'GEMINI_SYSTEM_PROMPT',
    );
  }
  return [text, own].filter((s) => typeof s === 'string' && s.trim() !== '').join('\n\n') || undefined;
}

export interface SkillChoice {
  /** The server row's tool source: its provider. */
  source: { provider: ToolProvider };
  /** Skill names as the server lists them (frontmatter name). */
  skills: string[];
}

export class SkillInstructions {
  /** Instructions by the SKILL.md digest they were verified against. */
  private readonly read = new Map<string, string>();
  private readonly said = new Set<string>();

  constructor(
    private readonly choices: SkillChoice[],
    private readonly warn: (text: string) => void,
  ) {}

  get active(): boolean {
    return this.choices.some((c) => c.skills.length > 0);
  }

  /** The chosen skills' instructions, each under its name; undefined when none could be used. */
  async text(): Promise<string | undefined> {
    const parts: string[] = [];
    for (const { source, skills } of this.choices) if (skills.length) parts.push(...(await this.fromServer(source.provider, skills)));
    return parts.length ? parts.join('\n\n') : undefined;
  }

  private async fromServer(provider: ToolProvider, names: string[]): Promise<string[]> {
    const who = provider.identity().name || provider.identity().id;
    const reader = skillsOf(provider);
    if (!reader) return (this.once(`${who} serves tools only and has no skills; clear the skills of its row`), []);
    let listed;
    try {
      listed = await reader.listSkills();
    } catch (err) {
      return (this.once(`Could not list the skills of ${who}: ${errorMessage(err)}`), []);
    }
    if (!listed.supported) return (this.once(`${who} does not offer skills (no io.modelcontextprotocol/skills extension); clear the skills of its row`), []);
    const out: string[] = [];
    for (const name of names) {
      const skill = listed.skills.find((s) => s.frontmatter.name === name);
      if (!skill) {
        const offered = listed.skills.map((s) => s.frontmatter.name).join(', ') || 'none';
        this.once(`${who} offers no skill named "${name}" (it offers: ${offered})`);
        continue;
      }
      const digest = Array.isArray(skill.resources) ? skill.resources.find((r) => r.uri === skill.uri)?.digest : undefined;
      const key = `${skill.uri} ${digest ?? 'dynamic'}`;
      let body = digest ? this.read.get(key) : undefined;
      if (body === undefined) {
        try {
          body = (await reader.readSkill(skill)).body;
          if (digest) this.read.set(key, body);
        } catch (err) {
          const why = err instanceof SkillRefused ? `it does not match its listed digest, size or frontmatter (${err.reason})` : errorMessage(err);
          this.once(`The skill "${name}" of ${who} was refused and left out of the instructions: ${why}`);
          continue;
        }
      }
      out.push(`## Skill: ${name}\n\n${body}`);
    }
    return out;
  }

  private once(text: string): void {
    if (this.said.has(text)) return;
    this.said.add(text);
    this.warn(text);
  }
}

/** The server prompt first, the chosen skills next, the node's own instruction last. */
export async function withSkills(skills: SkillInstructions | undefined, own: string | undefined): Promise<string | undefined> {
  if (!skills?.active) return own;
  return [await skills.text(), own].filter((s) => typeof s === 'string' && s.trim() !== '').join('\n\n') || undefined;
}

/** A row's `skills`: names one per line or comma-separated, or a list. */
export function skillNames(value: unknown): string[] {
  const items = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/[\n,]/) : [];
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}

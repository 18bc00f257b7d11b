// Skills over an McpSession's live connection (MCP's Skills extension, io.modelcontextprotocol/skills):
// the SDK's own SkillsClient lists a server's skills and reads a skill's SKILL.md, verifying its size,
// SHA-256 digest and frontmatter against the listed entry. A file that fails those checks is not
// returned: the caller hears why, as a SkillRefused.
import { SkillsClient, SkillVerificationError, type Skill } from '@modelcontextprotocol/client/ext/skills';
import type { ListOptions } from './prompts-resources';
import type { SessionRunner } from './session-features';

export type { Skill };

export interface SkillText {
  skill: Skill;
  /** SKILL.md below its frontmatter: the instructions. */
  body: string;
}

/** A skill whose file did not match its entry (digest, size or frontmatter): never used. */
export class SkillRefused extends Error {
  constructor(
    readonly uri: string,
    readonly reason: string,
  ) {
    super(`${uri} was refused: ${reason}`);
  }
}

export interface SkillsReader {
  /** The server's skills (empty when it does not offer the extension); entries that break the extension's rules are left out. */
  listSkills(options?: ListOptions): Promise<{ skills: Skill[]; supported: boolean }>;
  /** The skill's instructions, verified against its entry. */
  readSkill(skill: Skill, options?: ListOptions): Promise<SkillText>;
}

export class SessionSkills implements SkillsReader {
  constructor(
    private readonly run: SessionRunner,
    private readonly defaultTimeoutMs: number,
  ) {}

  listSkills(options: ListOptions = {}): Promise<{ skills: Skill[]; supported: boolean }> {
    const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
    return this.run(
      'skills/list',
      async (c) => {
        const skills = new SkillsClient(c, { skipInvalid: true });
        if (!skills.supported) return { skills: [], supported: false };
        return { skills: (await skills.list({}, { timeout })).skills, supported: true };
      },
      timeout,
    );
  }

  async readSkill(skill: Skill, options: ListOptions = {}): Promise<SkillText> {
    const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
    // A refusal is an answer, not a connection failure: it comes out of the runner as a value.
    const read = await this.run(
      `resources/read "${skill.uri}"`,
      async (c) => {
        try {
          return await new SkillsClient(c).read(skill, undefined, { timeout, cacheMode: 'bypass' });
        } catch (err) {
          if (err instanceof SkillVerificationError) return new SkillRefused(err.uri, err.message);
          throw err;
        }
      },
      timeout,
    );
    if (read instanceof SkillRefused) throw read;
    return { skill, body: (read.body ?? read.text ?? '').trim() };
  }
}

/** The skills side of a provider, when it has one (an ESP32 device has none). */
export function skillsOf(provider: object): SkillsReader | undefined {
  const p = provider as Partial<SkillsReader>;
  return typeof p.listSkills === 'function' && typeof p.readSkill === 'function' ? (p as SkillsReader) : undefined;
}

// The skills flows offer, served by one SDK Server through MCP's Skills extension: skills/list and
// skills/get answer with the entries (digests included); the files themselves are resources under
// skill:// that resources/list shows and resources/read reads (prompts-resources-serving.ts asks
// `skillResources` and `readSkillFile` here). A 2026-07-28 answer carries the extension's caching
// fields; ttlMs 0 because a deploy may change a skill at any time.
import { ProtocolError, ProtocolErrorCode, type ReadResourceResult, type Resource, type Server } from '@modelcontextprotocol/server';
import { GetSkillRequestParamsSchema, ListSkillsRequestParamsSchema } from '@modelcontextprotocol/core/ext/skills';
import type { SkillRegistry } from './flow-skills';

const PAGE = 100;

/** The extension's caching fields, which only 2026-07-28 answers carry. */
const cacheFields = (era: 'legacy' | 'modern') => (era === 'modern' ? { ttlMs: 0, cacheScope: 'private' as const } : {});

export function serveSkills(server: Server, skills: SkillRegistry, era: 'legacy' | 'modern'): void {
  server.setRequestHandler('skills/list', { params: ListSkillsRequestParamsSchema }, (params) => {
    const all = skills.all().map((s) => s.definition);
    const from = params.cursor === undefined ? 0 : Number(params.cursor);
    if (!Number.isSafeInteger(from) || from < 0 || from > all.length)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown cursor: ${params.cursor}`);
    const next = from + PAGE < all.length ? String(from + PAGE) : undefined;
    return { skills: all.slice(from, from + PAGE), ...(next ? { nextCursor: next } : {}), ...cacheFields(era) };
  });
  server.setRequestHandler('skills/get', { params: GetSkillRequestParamsSchema }, (params) => {
    const skill = skills.byUri(params.uri);
    if (!skill) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${params.uri}`);
    return { skill: skill.definition, ...cacheFields(era) };
  });
}

/** Every skill file as a resource, so a client that knows only resources still finds them. */
export function skillResources(skills: SkillRegistry): Resource[] {
  return skills.all().flatMap((s) =>
    [...s.files.keys()].map((uri) => ({
      uri,
      name: `${s.name}/${uri.slice(uri.indexOf(s.name) + s.name.length + 1)}`,
      ...(uri === s.definition.uri ? { title: s.name, description: s.definition.frontmatter.description } : {}),
      mimeType: 'text/markdown',
    })),
  );
}

/** resources/read of a skill file, or undefined when no skill serves `uri`. */
export function readSkillFile(skills: SkillRegistry, uri: string): ReadResourceResult | undefined {
  const text = skills.file(uri);
  return text === undefined ? undefined : { contents: [{ uri, mimeType: 'text/markdown', text }] };
}

// `mcp-list-tools`: any input lists every tool of the server (all pages) and sends them in the
// chosen format (raw MCP, Gemini, OpenAI, Anthropic) with the name map and compiler warnings.
import { McpNodeError, errorMessage } from '../../src/errors';
import { skillsOf } from '../../src/mcp/session-skills';
import { filterTools, missingNames } from '../../src/mcp/tool-names';
import { compileTools, isToolFormat } from '../../src/schema';
import { statusWriter } from '../shared/node-status';
import { handleInput, lines } from '../shared/input-handler';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, NodeMessage, RED } from '../shared/red-types';
import { useServer } from '../shared/use-server';
import { deployedSettings } from '../../src/settings-declaration';
import { SETTINGS } from './settings';
import { nodeEnvLookup } from '../shared/node-env';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-list-tools');
  function McpListToolsNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const settings = deployedSettings(def, SETTINGS, nodeEnvLookup(RED, node));
    const use = useServer(RED, node, settings.server);
    const format = String(settings.format);
    const include = lines(settings.include);
    const exclude = lines(settings.exclude);
    const expected = lines(settings.expected);
    const prefix = String(settings.prefix).trim();
    const property = String(settings.property) || SETTINGS.property.value;
    const userOnly = settings.userOnly === true || settings.userOnly === 'true';
    let lastMissing: string[] = [];

    if (!isToolFormat(format)) node.error(t('mcp-list-tools.errors.badFormat', { format }));

    handleInput(RED, node, async (msg: NodeMessage, send) => {
      const server = use.required();
      if (!isToolFormat(format)) throw new McpNodeError(t('mcp-list-tools.errors.badFormat', { format }), 'bad format', 'BAD_FORMAT');
      const started = Date.now();
      const deviceId = (msg.device as { id?: string } | undefined)?.id;
      const listed = await server.provider.listTools({ context: { deviceId }, userOnly });
      const tools = filterTools(listed.tools, include, exclude);
      const compiled = compileTools(tools, format, { prefix: prefix || undefined });
      lastMissing = missingNames(
        expected,
        listed.tools.map((tool) => tool.name),
      );
      if (lastMissing.length) node.warn(t('mcp-list-tools.warnings.missing', { tools: lastMissing.join(', ') }));
      const skills = await listedSkills(server.provider);
      RED.util.setMessageProperty(msg, property, compiled.payload, true);
      msg.mcp = {
        server: listed.server,
        tools,
        names: compiled.names,
        warnings: [...(listed.warnings ?? []), ...compiled.warnings, ...skills.warnings],
        ...(skills.list ? { skills: skills.list } : {}),
        missing: lastMissing,
        pages: listed.pages,
        durationMs: Date.now() - started,
      };
      send(msg);
    });
    statusWriter(RED, node).note = () =>
      lastMissing.length ? { fill: 'yellow', shape: 'ring', text: t('mcp-list-tools.status.missing', { count: lastMissing.length }) } : undefined;
  }
  RED.nodes.registerType('mcp-list-tools', McpListToolsNode);
};

/**
 * The server's skills (Skills extension) as msg.mcp.skills: `{name, description, uri, files}` each.
 * Absent when the server offers none; a failed listing is a warning, never a lost tool list.
 */
async function listedSkills(provider: object): Promise<{ list?: unknown[]; warnings: { tool: string; path: string; message: string }[] }> {
  const reader = skillsOf(provider);
  if (!reader) return { warnings: [] };
  try {
    const { skills, supported } = await reader.listSkills();
    if (!supported) return { warnings: [] };
    const list = skills.map((s) => ({
      name: s.frontmatter.name,
      description: s.frontmatter.description,
      uri: s.uri,
      files: Array.isArray(s.resources) ? s.resources.map((r) => r.uri) : 'dynamic',
    }));
    return { list, warnings: [] };
  } catch (err) {
    return { warnings: [{ tool: '', path: 'skills', message: `could not list the server's skills: ${errorMessage(err)}` }] };
  }
}

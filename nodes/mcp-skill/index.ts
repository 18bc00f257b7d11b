// `mcp-skill`: offers one skill (instructions and files that teach a model how this endpoint's
// tools are meant to be used) on an mcp-endpoint, through MCP's Skills extension. No wires: the
// skill is served as long as the node is deployed.
import { flowSkill } from '../../src/server/flows/flow-skills';
import { withDeclaredDefaults } from '../../src/settings-declaration';
import { errorMessage } from '../../src/errors';
import { translator } from '../shared/i18n';
import { flowOffer } from '../mcp-endpoint/flow-offer';
import { SETTINGS } from './settings';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { nodeEnvLookup } from '../shared/node-env';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-skill');
  function McpSkillNode(this: Node, flowDef: NodeDef) {
    RED.nodes.createNode(this, flowDef);
    const def = withDeclaredDefaults(flowDef, SETTINGS, nodeEnvLookup(RED, this));
    const node = this;
    const offer = flowOffer(RED, node, def.endpoint, [t('mcp-skill.errors.noEndpoint'), t('mcp-skill.status.noEndpoint')]);
    if (!offer) return;
    const { endpoint } = offer.config;
    let closed = false;
    // The entry's digests are computed before the skill is served: until then it is not listed.
    const building = endpoint.skills.track(flowSkill(node.id, def)).then(
      (skill) => {
        if (closed) return;
        const more = skill.files.size - 1; // beside SKILL.md
        node.status({ fill: 'green', shape: 'dot', text: more ? t('mcp-skill.status.servedFiles', { count: more }) : t('mcp-skill.status.served') });
        const other = endpoint.skills.register(skill);
        if (other) offer.fail(t('mcp-skill.errors.duplicate', { skill: skill.name, other }), t('mcp-skill.status.duplicate'));
      },
      (err) => offer.fail(t('mcp-skill.errors.badSkill', { reason: errorMessage(err) }), t('mcp-skill.status.badSkill')),
    );
    offer.config.register(node);
    node.on('close', (_removed: boolean, done: () => void) => {
      closed = true;
      endpoint.skills.deregister(node.id);
      offer.config.deregister(node);
      // A close while the digests are computed waits for them, so nothing registers after it.
      void building.finally(done);
    });
  }
  RED.nodes.registerType('mcp-skill', McpSkillNode);
};

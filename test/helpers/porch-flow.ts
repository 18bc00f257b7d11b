// The flow the Node-RED tools' specs have an assistant build, as the change it proposes: an inject
// ("porch motion") into a function ("porch-check", whose code the spec chooses: a first version that
// fails, then its fix) into a debug node ("porch light"), on the tab `z`.
export function porchFlowChanges(z: string, check: { name: string; func: string }): Array<Record<string, unknown>> {
  return [
    {
      op: 'add',
      node: {
        id: 'porch-motion',
        type: 'inject',
        z,
        name: 'porch motion',
        x: 100,
        y: 60,
        props: [{ p: 'payload' }],
        payload: 'motion',
        payloadType: 'str',
        wires: [['porch-check']],
      },
    },
    { op: 'add', node: { id: 'porch-check', type: 'function', z, name: check.name, x: 300, y: 60, func: check.func, outputs: 1, wires: [['porch-light']] } },
    {
      op: 'add',
      node: { id: 'porch-light', type: 'debug', z, name: 'porch light', x: 500, y: 60, active: true, tosidebar: true, complete: 'payload', wires: [] },
    },
  ];
}

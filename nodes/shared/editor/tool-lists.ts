// Tool lists for dropdowns and warnings, always from the runtime (its admin routes), never from a
// second implementation here: the deployed server's list, or, for a server that is new or changed
// since the last deploy, the list its current dialog settings give.
import { getJson, postJson, type Done } from './requests';
import { settingsOf, type EditorServer } from './server-settings';
import type { DialogText } from './register';

/** A tool as the admin routes list it (the server's own listing, names as the node will use them). */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: Record<string, unknown>;
}

/**
 * The tools routes' answer: the tools; with `near`, the closest names to one the server lacks; with a
 * format, what the conversion of each schema had to change.
 */
export interface ToolsAnswer {
  tools?: ListedTool[];
  near?: string[];
  warnings?: Array<{ tool?: string; path: string; message: string }>;
}

/** The prompts route's answer, as the server lists them. */
export interface PromptsAnswer {
  prompts?: Array<{ name: string; title?: string; description?: string; arguments?: Array<{ name: string; required?: boolean }> }>;
}

interface Described {
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** The resources route's answer: resources and resource templates, as the server lists them. */
export interface ResourcesAnswer {
  resources?: Array<Described & { uri: string }>;
  resourceTemplates?: Array<Described & { uriTemplate: string }>;
}

/** query: {format, prefix, near}; `near` asks for the closest tool names to a name the server lacks. */
export function loadTools(serverId: string, query: Record<string, unknown>, done: Done<ToolsAnswer>): void {
  const cfg = RED.nodes.node(serverId) as (EditorServer & { changed?: boolean }) | null;
  const viaSettings = () => {
    if (!cfg) return done(null, { tools: [] });
    postJson<ToolsAnswer>('mcp-server/tools', $.extend(settingsOf(cfg), query), done);
  };
  if (cfg && cfg.changed) return viaSettings();
  getJson<ToolsAnswer>(`mcp-server/${encodeURIComponent(serverId)}/tools`, query, (err, r, xhr) => {
    if (err && xhr && xhr.status === 404) viaSettings();
    else done(err, r);
  });
}

/** The runtime's "did you mean" names (src/mcp/tool-names.ts) for a tool name the server lacks. */
export function suggestTools(serverId: string, name: string, done: (names: string[]) => void): void {
  loadTools(serverId, { near: name }, (err, r) => done(err || !r ? [] : r.near || []));
}

export interface DropdownItem {
  value: string;
  label: string;
}

export interface ServerDropdownOptions<A> {
  node: { _: DialogText };
  /** Selectors: the server field, the picker <select>, the text input it fills, the description line. */
  server: string;
  picker: string;
  input: string;
  description: string;
  datalist?: string;
  fetch(server: string, done: Done<A>): void;
  items(answer: A): DropdownItem[];
  /** i18n keys of the hint shown as the picker's first entry. */
  texts: { pickServer: string; loading: string; pick: string; none: string; failed: string; empty?: string };
  loaded(items: DropdownItem[], answer?: A): void;
}

/**
 * A server-dependent dropdown (tools, prompts, resources): filled when the server field changes,
 * a hint as its first entry, the chosen entry copied into the text input.
 */
export function serverDropdown<A>(o: ServerDropdownOptions<A>): { items(): DropdownItem[]; select(value: string): void } {
  const picker = $(o.picker);
  let items: DropdownItem[] = [];
  const fill = (note: string) => {
    picker.empty().append($('<option>').val('').text(note));
    if (o.datalist) $(o.datalist).empty();
    for (const i of items) {
      $('<option>').val(i.value).text(i.label).appendTo(picker);
      if (o.datalist) $('<option>').val(i.value).appendTo(o.datalist);
    }
  };
  const load = () => {
    const server = $(o.server).val() as string;
    items = [];
    if (!server || server === '_ADD_') {
      fill(o.node._(o.texts.pickServer));
      o.loaded(items);
      return;
    }
    fill(o.node._(o.texts.loading));
    o.fetch(server, (err, r) => {
      if (err) {
        fill(o.node._(o.texts.none));
        $(o.description).text(o.node._(o.texts.failed, { error: err }));
        return;
      }
      items = r ? o.items(r) : [];
      fill(items.length || !o.texts.empty ? o.node._(o.texts.pick, { count: items.length }) : o.node._(o.texts.empty));
      o.loaded(items, r ?? undefined);
    });
  };
  picker.on('change', () => {
    if (picker.val())
      $(o.input)
        .val(picker.val() as string)
        .trigger('change');
  });
  $(o.server).on('change', load);
  return {
    items: () => items,
    select: (value) => void picker.val(value),
  };
}

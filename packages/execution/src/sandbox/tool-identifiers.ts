import type { SandboxTool } from './sandbox.js';

// Words that cannot (or must not) name a property users write as tools.x.y: JavaScript reserved
// words and the names that make objects behave specially (then → thenable, toJSON, __proto__…).
const RESERVED = new Set(
  `break case catch class const continue debugger default delete do else enum export extends false
  finally for function if import in instanceof new null return super switch this throw true try
  typeof var void while with yield let static implements interface package private protected public
  await async __proto__ constructor prototype then toString valueOf hasOwnProperty toJSON`.split(
    /\s+/,
  ),
);

/** A tool with the keys code reaches it by. */
export interface NamedTool extends SandboxTool {
  /** Always a safe identifier: `tools.<serverIdentifier>.<toolIdentifier>`. */
  readonly serverIdentifier: string;
  /** The tool's key in code, a safe identifier. */
  readonly toolIdentifier: string;
  /** The server is also reachable by its exact name, `tools["my-server"]`. */
  readonly serverByName: boolean;
  /** The tool is also reachable by its exact name, `tools.my_server["get-item"]`. */
  readonly toolByName: boolean;
}

/**
 * Safe JavaScript identifiers for every server and tool: characters outside [A-Za-z0-9_$]
 * become `_`, a leading digit or a reserved name gets a `_` prefix, names are capped at 64
 * characters, and collisions (including names that differ only by case after cleaning) get
 * `_2`, `_3`…, so two tools never share an identifier. A name that is already a safe identifier
 * keeps it before any cleaned name may take it. A name that is not its identifier also stays a
 * key of its own (`tools["my-server"]["get-item"]`), unless it names an object's own machinery
 * (`then`, `constructor`, `__proto__`…) or another tool's identifier.
 *
 * @example
 * ```ts
 * nameTools([{ server: 'my-server', name: 'get-item' }, { server: 'my_server', name: 'x' }]);
 * // my_server keeps its own name: tools.my_server.x; the cleaned one takes the next,
 * // tools.my_server_2.get_item, and stays reachable as tools["my-server"]["get-item"]
 * ```
 */
export function nameTools(tools: readonly SandboxTool[]): NamedTool[] {
  const groups = new Map<string, number[]>();
  tools.forEach((tool, i) => groups.set(tool.server, [...(groups.get(tool.server) ?? []), i]));
  const servers = [...groups.keys()];
  const serverIds = assign(servers);
  const serverIdSet = new Set(serverIds);
  const named: NamedTool[] = [];
  servers.forEach((server, p) => {
    const serverIdentifier = serverIds[p] as string;
    const serverByName = usableAlias(server, serverIdentifier, serverIdSet);
    const indexes = groups.get(server) as number[];
    const names = indexes.map((i) => (tools[i] as SandboxTool).name);
    const ids = assign(names);
    const idSet = new Set(ids);
    const aliased = new Set<string>();
    indexes.forEach((i, k) => {
      const name = names[k] as string;
      const toolIdentifier = ids[k] as string;
      // A name given twice is the first one's alias only.
      const toolByName = usableAlias(name, toolIdentifier, idSet) && !aliased.has(name);
      if (toolByName) aliased.add(name);
      const tool = tools[i] as SandboxTool;
      named[i] = { ...tool, serverIdentifier, toolIdentifier, serverByName, toolByName };
    });
  });
  return named;
}

/** The identifiers of `names`, in order: names that are their own identifier claim it first. */
function assign(names: readonly string[]): string[] {
  const used = new Set<string>();
  const result: (string | undefined)[] = names.map((name) => {
    const id = identifier(name);
    if (id !== name || used.has(id.toLowerCase())) return undefined;
    used.add(id.toLowerCase());
    return id;
  });
  return names.map((name, i) => result[i] ?? unique(identifier(name), used));
}

function usableAlias(name: string, own: string, identifiers: ReadonlySet<string>): boolean {
  return (
    name !== own &&
    name !== '' &&
    !identifiers.has(name) &&
    !(name in Object.prototype) &&
    name !== 'then' &&
    name !== 'toJSON'
  );
}

function identifier(name: string): string {
  let id = name
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9_$]/g, '_')
    .slice(0, 64);
  if (id === '' || /^[0-9]/.test(id) || RESERVED.has(id)) id = `_${id}`;
  return id;
}

function unique(base: string, used: Set<string>): string {
  let candidate = base;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${base}_${n}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

import { closest } from '../invocation.js';

/** What `exec` knows of the servers a script could reach, to explain a name it could not. */
export interface ReachableServers {
  /** The tool names of each server whose tools the script was given. */
  readonly tools: ReadonlyMap<string, readonly string[]>;
  /** Servers the script named that could not be connected, with the reason. */
  readonly unconnected: ReadonlyMap<string, string>;
}

// The sandbox's sentence for a name the run was not given (see the execution package).
const NOT_GIVEN =
  /tools\.([^\s.]+)\.(\S+) is not available: describe "[^"]*" with describe_tools first/;

/**
 * The sandbox's "tools.x.y is not available: describe … first" in the CLI's own terms, with the
 * cause: the server could not be connected (and why), it has no such tool (and the one meant,
 * when one is close), or there is no such server. `undefined` when the message is another one
 * or the cause is none of these (the sandbox's sentence then stands).
 */
export function explainMissingTool(message: string, servers: ReachableServers): string | undefined {
  const found = NOT_GIVEN.exec(message);
  if (found === null) return undefined;
  const [sentence, written = '', tool = ''] = found;
  const ids = [...new Set([...servers.tools.keys(), ...servers.unconnected.keys()])];
  // A script writes tools.my_server for the server "my-server".
  const server = ids.find((id) => id === written || safe(id) === written);
  let cause: string | undefined;
  if (server === undefined) {
    const meant = closest(written, ids);
    cause = `no server "${written}"${meant === undefined ? '' : `; did you mean ${meant}?`} ("mcp-agent servers list" shows them)`;
  } else if (servers.unconnected.has(server)) {
    cause = `tools.${written}.${tool} cannot be called: ${server} could not be connected (${servers.unconnected.get(server) ?? ''}); "mcp-agent servers status ${server}" says more`;
  } else {
    const names = servers.tools.get(server) ?? [];
    if (names.includes(tool) || names.some((name) => safe(name) === tool)) return undefined;
    const original = meantTool(tool, names);
    cause = `no tool ${tool} on ${server}${original === undefined ? '' : `; did you mean ${server}.${original}?`} ("mcp-agent tools search" finds tools by what they do)`;
  }
  return message.replace(sentence, cause);
}

/** The tool of `names` a misspelt `tool` most likely meant (getSum: get_sum), if one is close. */
export function meantTool(tool: string, names: readonly string[]): string | undefined {
  const meant = closest(tool, names);
  if (meant !== undefined) return meant;
  const loosely = closest(loose(tool), names.map(loose));
  return loosely === undefined ? undefined : names.find((name) => loose(name) === loosely);
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]/g, '_');
}

// getSum and get_sum are one name written two ways.
function loose(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

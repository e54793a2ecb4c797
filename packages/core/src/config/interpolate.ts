import { clip } from '../clip.js';
import type { ConfigIssue } from './issues.js';

/** Where `${VAR}` values come from; `process.env` unless a caller passes its own. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** What placeholders may resolve to besides the environment. */
export interface PlaceholderValues {
  /** VS Code's predefined variables that have a value here (`workspaceFolder`, `userHome`, …). */
  readonly variables?: Readonly<Record<string, string>>;
  /** Values of VS Code's `inputs`, by id, for `${input:id}`. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** `false` refuses every placeholder (a value sent over an API is taken as written). */
  readonly expand?: boolean;
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// VS Code's predefined variables that only the editor can fill (the open file, the selection).
const EDITOR_VARIABLES = new Set([
  'file',
  'fileWorkspaceFolder',
  'relativeFile',
  'relativeFileDirname',
  'fileBasename',
  'fileBasenameNoExtension',
  'fileExtname',
  'fileDirname',
  'fileDirnameBasename',
  'lineNumber',
  'selectedText',
  'execPath',
  'defaultBuildTask',
  'cwd',
]);
// The ones an importer can fill from where the file is.
const WORKSPACE_VARIABLES = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'userHome',
  'pathSeparator',
  '/',
]);

/**
 * Expands `${VAR}`, `${VAR:-default}`, VS Code's `${env:VAR}`, its predefined variables given
 * in `values.variables` (`${workspaceFolder}`, `${userHome}`, …) and `${input:id}` given in
 * `values.inputs`. Anything else is reported as an issue at `path` naming the placeholder and
 * the fix, never a value: an unset variable, an editor-only variable (`${file}`), `${config:…}`,
 * `${command:…}`, an input without a value.
 */
export function interpolate(
  text: string,
  path: string,
  env: Environment,
  issues: ConfigIssue[],
  values: PlaceholderValues = {},
): string {
  return text.replace(PLACEHOLDER, (whole, inner: string) => {
    const refuse = (message: string) => {
      issues.push({ path, message });
      return whole;
    };
    if (values.expand === false)
      return refuse(
        `placeholder "${clip(whole, 60)}" is not expanded here; write the value itself`,
      );
    if (inner.startsWith('input:')) {
      const id = inner.slice('input:'.length);
      const value = values.inputs?.[id];
      if (value !== undefined) return value;
      return refuse(
        `unsupported placeholder "${clip(whole, 60)}" without a value: input "${clip(id, 60)}" was not given (the importer asks for it, or takes it as an option)`,
      );
    }
    const variable = values.variables?.[inner];
    if (variable !== undefined) return variable;
    if (WORKSPACE_VARIABLES.has(inner))
      return refuse(
        `${inner} is not set: "${clip(whole, 60)}" is VS Code's ${inner === 'workspaceFolder' ? 'workspace folder' : 'variable'}; import the file from the workspace's .vscode folder, or give the folder`,
      );
    if (EDITOR_VARIABLES.has(inner) || /^(config|command|workspaceFolder):/.test(inner))
      return refuse(
        `"${clip(whole, 60)}" is a VS Code editor variable with no value outside the editor; write the value instead`,
      );
    const withDefault = /^([^:]*):-(.*)$/s.exec(inner);
    let name = withDefault ? (withDefault[1] ?? '') : inner;
    const fallback = withDefault ? withDefault[2] : undefined;
    if (name.startsWith('env:')) name = name.slice(4);
    if (!NAME.test(name))
      return refuse(
        `unsupported placeholder "${clip(whole, 60)}": only \${VAR}, \${VAR:-default}, \${env:VAR}, \${input:id} and VS Code's workspace variables are expanded; set an environment variable instead`,
      );
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    return refuse(`environment variable ${name} is not set; set it or write \${${name}:-default}`);
  });
}

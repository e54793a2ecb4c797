import { splitWords } from './tokenizer.js';

// Parameter names that hand the tool a program in some language: a query language, a shell
// command line, code, an expression. Whole names only ("sql", "sqlQuery", "shell_command"): a
// "country_code" is a value, not code.
const LANGUAGE_WORDS = new Set(['sql', 'command', 'cmd', 'code', 'script', 'expression', 'shell']);
// Words that may stand beside them in such a name ("sql_query", "code_snippet").
const COMPANION_WORDS = new Set([
  'query',
  'statement',
  'snippet',
  'line',
  'text',
  'source',
  'to',
  'run',
  'exec',
  'execute',
  'string',
]);
// A plain "query" or "input" is general-purpose only when its description says it takes SQL
// or a command ("SQL query to run"); otherwise it is a search box.
const PLAIN_NAMES = new Set(['query', 'input', 'statement', 'source']);
const LANGUAGE_IN_TEXT =
  /(?:^|[^a-z])(?:sql|shell command|command line|code to (?:run|execute))(?:$|[^a-z])/i;

/** One parameter as {@link takesProgram} reads it. */
export interface ProgramParameter {
  readonly name: string;
  readonly description?: string | undefined;
}

/**
 * Whether a tool takes a program as a parameter — SQL, a shell command, code, an expression —
 * judged from its parameters' names and descriptions only (never its server's or its own
 * name). Such a general-purpose tool can serve requests about anything in its data or its
 * machine, whatever words its own description uses.
 */
export function takesProgram(parameters: readonly ProgramParameter[]): boolean {
  return parameters.some(({ name, description }) => {
    const words = splitWords(name);
    if (words.length === 0) return false;
    if (
      words.some((word) => LANGUAGE_WORDS.has(word)) &&
      words.every((word) => LANGUAGE_WORDS.has(word) || COMPANION_WORDS.has(word))
    )
      return true;
    return (
      words.length === 1 && PLAIN_NAMES.has(words[0]!) && LANGUAGE_IN_TEXT.test(description ?? '')
    );
  });
}

const warned = new Set<string>();

/** Emits one `DeprecationWarning` per shim per process, with a code and the migration hint. */
export function deprecated(name: string, code: string, hint: string): void {
  if (warned.has(name)) return;
  warned.add(name);
  process.emitWarning(`${name} is deprecated: ${hint}`, { type: 'DeprecationWarning', code });
}

/**
 * Code-unit order, the same on every machine. Used instead of SQL ORDER BY on text, whose
 * order depends on the PostgreSQL collation and so differs from SQLite's.
 *
 * @example
 * ```ts
 * rows.sort((a, b) => compareText(a.id, b.id)); // 'B' before 'a', on SQLite and PostgreSQL alike
 * ```
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

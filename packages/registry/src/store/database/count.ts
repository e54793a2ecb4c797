/** A bigint column's value as a number (PostgreSQL's driver sends strings). */
export function count(value: number | string | null | undefined): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

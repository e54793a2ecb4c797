/**
 * `text` itself when it has at most `max` characters, else its first `max` characters followed
 * by `marker` (default `…`). Messages and log lines quote what users and servers sent through it,
 * so a hostile megabyte never reaches a message whole, and the marker says that a cut was made.
 *
 * @example
 * clip('a'.repeat(100), 10); // 'aaaaaaaaaa…'
 * clip(line, 200, '… (cut; --json shows it whole)');
 */
export function clip(text: string, max: number, marker = '…'): string {
  return text.length > max ? `${text.slice(0, max)}${marker}` : text;
}

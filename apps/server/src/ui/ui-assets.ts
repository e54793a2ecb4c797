import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One file of the web UI, read once. */
export interface UiAsset {
  readonly body: Buffer;
  readonly type: string;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};
const NAME = /^[a-z0-9-]+\.(html|js|css|svg)$/;

/**
 * The web UI's files, shipped in the package's `ui/` folder (plain JavaScript and CSS: no CDN, no
 * build step, works offline), read once into memory. Only names listed there are served, so a
 * request can never name another file.
 */
export function loadUiAssets(): ReadonlyMap<string, UiAsset> {
  // Two levels up from src/ui (tests) and from dist/ui (installed): the package root.
  const folder = fileURLToPath(new URL('../../ui/', import.meta.url));
  const assets = new Map<string, UiAsset>();
  for (const name of readdirSync(folder)) {
    const match = NAME.exec(name);
    if (match === null) continue;
    assets.set(name, {
      body: readFileSync(`${folder}${name}`),
      type: TYPES[match[1] as string] as string,
    });
  }
  return assets;
}

/**
 * The headers of every UI response: a content security policy that runs only the UI's own
 * scripts and styles (tool descriptions and observations are untrusted text, always inserted as
 * text), no framing, no sniffing, no referrer.
 */
export const UI_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
});

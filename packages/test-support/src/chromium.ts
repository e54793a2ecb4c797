// Debian's chromium, driven by playwright-core through its executablePath: no browser download.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package puts the browser; `MCP_AGENT_CHROMIUM` overrides it. */
export const CHROMIUM = process.env.MCP_AGENT_CHROMIUM ?? '/usr/bin/chromium';

// Flags for a headless chromium on a closed network, as root: without the background-networking
// ones it keeps trying Google's hosts.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Launches headless chromium (playwright gives it a fresh temporary profile, removed on close).
 * Fails with the fix when the browser is not installed, rather than skipping.
 */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Debian's chromium is not installed at ${CHROMIUM}: install it with "apt-get install -y chromium" (.ci/run does), or set MCP_AGENT_CHROMIUM to a chromium binary.`,
    );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  return { browser, close: () => browser.close() };
}

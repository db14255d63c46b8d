// Debian's Chromium (scripts/install-chromium.sh; never a browser download), headless, with a fresh profile: how
// the browser tests and benches start it.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const CHROMIUM = process.env.RERANKIT_CHROMIUM ?? "/usr/bin/chromium";

const ARGS = ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

/** A fresh headless Chromium context; `close()` ends it and removes its profile. */
export async function launchChromium({ extraArgs = [], ...options } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/install-chromium.sh installs Debian's chromium`);
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(path.join(tmpdir(), "rerankit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...ARGS, ...extraArgs], ...options });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/** Debian's Chromium, which the page tests drive with playwright-core (.ci/run installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/** Why a page test is skipped here, or false when Chromium is installed. */
export const chromiumMissing: string | false = !existsSync(CHROMIUM) && 'Chromium is not installed';

/** Chromium headless, without the network services, sandbox or GPU a test machine lacks. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Collects a page's uncaught errors and console errors (a test asserts the list stays empty). */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/**
 * Launches Debian Chromium for benchmarks with the flags of TOOLCHAIN.md (software GL through
 * SwiftShader, no background networking), a fresh profile each time.
 */

import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../playwright.config.ts';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

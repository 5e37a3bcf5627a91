/**
 * Launches Debian Chromium for benchmarks with the flags of TOOLCHAIN.md (software GL through
 * SwiftShader, no background networking), a fresh profile each time.
 */

import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../playwright.config.ts';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

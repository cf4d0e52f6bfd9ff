// The shape of a UI check: Playwright looking at the real workbench in Chromium. run.mjs loads every
// out/test/e2e/ui/*.check.js and runs the `checks` each exports, in file order, on one page where the
// extension is loaded from the repository or installed from the VSIX (no test runner attached, so the extension host
// stays up).
import type { Locator, Page } from 'playwright-core';

export interface UiContext {
  page: Page;
  /** Absolute path of the workspace folder the page opened (a copy of test/e2e/fixtures/workspace). */
  workspace: string;
  /** The user settings file of this code-server profile (code-server applies changes to it while running). */
  settingsFile: string;
  /** True when the extension under test is the installed VSIX (no extensionDevelopmentPath). */
  installed: boolean;
  /**
   * Saves a full-page screenshot as .test-results/e2e/<phase>/<name>.png and returns its path; with a region (an
   * element or a box in page pixels) that part also as <name>-detail.png, small enough for the README.
   */
  screenshot(name: string, region?: Locator | { x: number; y: number; width: number; height: number }): Promise<string>;
  log(text: string): void;
}

export interface UiCheck {
  name: string;
  /** Throw (e.g. with node:assert) to fail. */
  run(ctx: UiContext): Promise<void>;
}

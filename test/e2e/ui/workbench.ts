// Playwright steps on the VS Code workbench DOM, shared by the UI checks.
import type { Locator, Page } from 'playwright-core';

// Waits are generous: on a busy 2-core CI machine the workbench can take many seconds per step.
const STEP_TIMEOUT_MS = 30_000;

/** Waits until the workbench is drawn and the workspace folder is listed in the explorer. */
export async function waitForWorkbench(page: Page, timeoutMs = 120_000): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  await page
    .locator('.explorer-folders-view .monaco-list-row')
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Opens a workspace file through Quick Open (Ctrl+P), the way a person would. */
export async function openFile(page: Page, fileName: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 0; attempt < 3 && !(await input.isVisible()); attempt++) {
    await page.keyboard.press('Control+P');
    await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS / 3 }).catch(() => undefined);
  }
  await input.fill(fileName);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first();
  await row.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  await page.keyboard.press('Enter');
  await activeTab(page, fileName).waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  await activeEditor(page)
    .locator('.view-lines .view-line')
    .first()
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
}

export function activeTab(page: Page, fileName: string): Locator {
  return page.locator('.tabs-container .tab.active', { hasText: fileName });
}

/** The text editor of the active editor group (hidden editors, e.g. in other groups, are skipped). */
export function activeEditor(page: Page): Locator {
  return page
    .locator('.editor-group-container.active .editor-instance .monaco-editor')
    .filter({ visible: true })
    .first();
}

/** The `mtkN` classes of the token spans in the visible lines of the active editor, in order. */
export async function tokenClasses(page: Page): Promise<string[]> {
  const spans = activeEditor(page).locator('.view-lines .view-line span span');
  const classes = await spans.evaluateAll((elements: Array<{ className: string }>) => elements.map((e) => e.className));
  return classes.flatMap((c) => c.split(/\s+/).filter((name) => /^mtk\d+$/.test(name)));
}

/** The language shown in the status bar (the `status.editor.mode` item). */
export async function statusBarLanguage(page: Page): Promise<string> {
  return (await page.locator('[id="status.editor.mode"]').innerText()).trim();
}

/** Polls `read` until `accept` holds; returns the last value either way, so the caller's assert shows it. */
export async function settle<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = STEP_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

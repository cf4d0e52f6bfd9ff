// Playwright steps on the VS Code workbench DOM, shared by the UI checks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  // A palette still fading out after a command is inert: wait until it has gone.
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 3_000 })
    .catch(() => undefined);
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 0; attempt < 3 && !(await input.isVisible()); attempt++) {
    await page.keyboard.press('Control+P');
    await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS / 3 }).catch(() => undefined);
  }
  await input.fill(fileName);
  // The row is clicked: Enter takes the first row, which until the filter applies is the most recent editor (a
  // file opened by the check before, not this one).
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first();
  await row.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  await row.click();
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

/**
 * Runs a command from the command palette (F1) by its title, as a person would: the row whose label is exactly
 * `title` is clicked (Enter would take the first fuzzy match, e.g. a recently used "Close All Editor Groups").
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  await input.fill(`>${title}`);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  const label = (text: string) =>
    text
      .split('\n')[0]
      .replace(/\u00a0/g, ' ')
      .trim();
  const texts = await settle(
    () => rows.allInnerTexts(),
    (all) => all.some((t) => label(t) === title),
  );
  const index = texts.findIndex((t) => label(t) === title);
  if (index < 0) throw new Error(`no command "${title}" in the palette: ${texts.map(label).join(' | ')}`);
  await rows.nth(index).click();
}

/** Answers an open quick pick or input box: types `text`, waits for a row with `row` (quick picks), Enter. */
export async function answerQuickInput(page: Page, text: string, row?: string | RegExp): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // The palette that ran the command fades out (inert) before the command's own picker opens, which can take a
  // while when it first lists from the cluster: wait for an input that takes text and is not the palette's.
  const ready = await settle(
    async () =>
      (await input.isVisible().catch(() => false)) &&
      (await input.isEditable({ timeout: 500 }).catch(() => false)) &&
      (await input.getAttribute('aria-label').catch(() => null)) !== 'Type the name of a command to run.',
    (ok) => ok,
    2 * STEP_TIMEOUT_MS,
  );
  if (!ready) throw new Error(`no picker or input box to answer "${text}" in`);
  await input.fill(text);
  if (row)
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: row })
      .first()
      .waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  await page.keyboard.press('Enter');
}

/**
 * Points at `token` (the mouse leaves first, so a hover shown already is asked anew) until the hover's text passes
 * `accept`; returns that text (rendered spaces as spaces) and the hover.
 */
export async function hoverText(
  page: Page,
  token: Locator,
  accept: (text: string) => boolean,
): Promise<{ text: string; hover: Locator }> {
  await token.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  const hover = page.locator('.monaco-hover').filter({ visible: true });
  const shown = async () => ((await hover.count()) ? (await hover.first().innerText()).replace(/\u00a0/g, ' ') : '');
  const text = await settle(
    async () => {
      await page.mouse.move(5, 5);
      await token.hover();
      // The hover opens after the editor's delay and fills in when the server answers: read it as it comes, and
      // point anew only when it has not passed after a while (a language change, a server still starting).
      return settle(shown, accept, HOVER_WAIT_MS);
    },
    accept,
    2 * STEP_TIMEOUT_MS,
  );
  return { text, hover: hover.first() };
}

/** How long one pointing at a token waits for its hover to pass before pointing again. */
const HOVER_WAIT_MS = 3_000;

/** A hover with some of the text around it, for the README's picture. */
export async function aroundHover(
  hover: Locator,
): Promise<{ x: number; y: number; width: number; height: number } | undefined> {
  const box = await hover.boundingBox();
  return box ? { x: box.x - 120, y: box.y - 70, width: box.width + 200, height: box.height + 150 } : undefined;
}

/** The Problems panel's rows (aria labels: severity, message, position) once one passes `accept`. */
export async function problemRows(page: Page, accept: (rows: string[]) => boolean): Promise<string[]> {
  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  const rows = page.locator('.markers-panel .monaco-list-row');
  return settle(
    async () => (await rows.evaluateAll((all) => all.map((r) => r.getAttribute('aria-label') ?? ''))).filter(Boolean),
    accept,
    2 * STEP_TIMEOUT_MS,
  );
}

/** The texts of the visible tree rows of the side bar's views, whitespace folded. */
export async function sideBarRows(page: Page): Promise<string[]> {
  const texts = await page.locator('.part.sidebar .pane-body .monaco-list-row').allInnerTexts();
  return texts.map((t) => t.replace(/\s+/g, ' ').trim());
}

/**
 * Sets an enum setting in the Settings editor, as a person would: Preferences: Open User Settings, search for the
 * setting by its id, pick `value` in its drop-down, close the editor once the setting is written.
 */
export async function setEnumSetting(page: Page, id: string, value: string): Promise<void> {
  await runCommand(page, 'Preferences: Open User Settings');
  const editor = page.locator('.settings-editor');
  const body = editor.locator('.settings-body').first();
  await body.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  // A hover the last click left (an editor tab's path) may lie over the search box: the mouse leaves it first.
  await body.hover({ force: true });
  await page
    .locator('.workbench-hover')
    .filter({ visible: true })
    .first()
    .waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS })
    .catch(() => undefined);
  await editor.locator('.search-container').first().click();
  await page.keyboard.press('Control+A');
  // `@id:` shows that one setting: a bare id also lists the settings it fuzzily matches.
  await page.keyboard.type(`@id:${id}`);
  const row = body.locator(`[data-key="${id}"]`).first();
  const select = row.locator('select.monaco-select-box').first();
  await select.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  await select.selectOption(value);
  // The editor writes the change a moment later (a debounce; closed before, the change is lost), then marks the row
  // as set, or not when the value is the default (the setting is removed from the file).
  const configured = value !== settingDefault(id);
  const marked = await settle(
    async () => ((await row.getAttribute('class')) ?? '').split(/\s+/).includes('is-configured'),
    (is) => is === configured,
  );
  if (marked !== configured) throw new Error(`${id} was not written as ${value} by the Settings editor`);
  await runCommand(page, 'View: Close Editor');
  await editor.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
}

/** The default of one of the extension's settings, from its manifest. */
function settingDefault(id: string): unknown {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  return manifest.contributes.configuration.properties[id]?.default;
}

/**
 * Closes every editor, leaving the keyboard with the workbench (a webview, e.g. a Markdown preview, keeps it
 * otherwise); unsaved untitled editors (a diagnosis report) are closed without saving.
 */
export async function closeAllEditors(page: Page): Promise<void> {
  await page
    .locator('.part.statusbar')
    .first()
    .click({ position: { x: 5, y: 5 } });
  await runCommand(page, 'View: Close All Editors');
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ }).first();
  const tabs = page.locator('.part.editor .tabs-container .tab');
  // Either every editor goes at once, or an unsaved one asks first.
  const asked = await settle(
    async () => ((await dontSave.isVisible()) ? 'asked' : (await tabs.count()) === 0 ? 'closed' : ''),
    (state) => state !== '',
  );
  if (asked === 'asked') await dontSave.click();
  await tabs.first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
}

/** The side bar's width when the workbench starts (the checks that widen it put it back). */
export const SIDE_BAR_WIDTH = 300;

/** Drags the side bar's edge so it is `width` pixels wide (wide: tree rows with long labels stay readable). */
export async function widenSideBar(page: Page, width = 560): Promise<void> {
  const box = await page.locator('.part.sidebar').first().boundingBox();
  if (!box || Math.abs(box.width - width) < 4) return;
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
}

/** Folds the side bar view whose header says `title` (clicked at its left end, away from its action buttons). */
export async function foldView(page: Page, title: string): Promise<void> {
  const header = page.locator('.part.sidebar .pane-header', { hasText: title }).first();
  if ((await header.count()) && (await header.getAttribute('aria-expanded')) === 'true')
    await header.click({ position: { x: 12, y: 10 } });
}

/** Trace Packet... from the palette: a source IP, then a Service picked from the dump by its name (row `row`). */
export async function traceFromPalette(page: Page, src: string, serviceName: string, row: RegExp): Promise<void> {
  await runCommand(page, 'Kube Packet Path: Trace Packet...');
  await answerQuickInput(page, src);
  // The picker finds the Service by its name, not only by its address; the row is clicked (Enter could take the
  // first row while the filter is still being applied).
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(serviceName);
  const hit = page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first();
  await hit.waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForTimeout(300);
  await hit.click();
}

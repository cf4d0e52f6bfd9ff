// Renders media/source/icon-128.svg (drawn for this project) to the 128x128 PNG the marketplace shows, with Debian's
// Chromium through playwright-core: `node scripts/icon.mjs`. The PNG is committed; run this after editing the SVG.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(join(root, 'media', 'source', 'icon-128.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.KPP_E2E_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(root, 'media', 'icon.png'), omitBackground: true });
  console.log('icon: wrote media/icon.png (128x128)');
} finally {
  await browser.close();
}

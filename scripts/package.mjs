#!/usr/bin/env node
// `npm run package`: the VSIX a person installs. Builds minified bundles into a staging folder (dist/ of the working
// tree, used by the tests, is left alone), copies what ships next to them, and runs @vscode/vsce there:
//   kube-packet-path-<version>.vsix in the repository root (or --out FILE).
// vsce runs offline: --no-dependencies (everything is bundled; no `npm list`), no prepublish script, and
// EXTENSIONS_GALLERY/marketplace are never asked (packaging does not publish). The script then reads the VSIX's own
// zip directory and fails if it is 5 MB or more, or holds anything that must not ship (tests, TypeScript sources,
// source maps, the lab, the bench). Prints the bundle sizes and the VSIX size.
//
// Exit codes: 0 packaged, 1 failed.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const LIMIT = 5 * 1024 * 1024;
const outArg = process.argv.indexOf('--out');
const vsixPath = path.resolve(
  outArg > 0 ? process.argv[outArg + 1] : path.join(root, `${pkg.name}-${pkg.version}.vsix`),
);
/** Top-level entries copied into the staging folder; .vscodeignore (copied too) then decides file by file. */
const SHIPPED = [
  'package.json',
  '.vscodeignore',
  'LICENSE',
  'README.md',
  'README.zh-CN.md',
  'CHANGELOG.md',
  'syntaxes',
  'language-configuration',
  'media',
];
/** Nothing in the VSIX may match these. */
const FORBIDDEN = [
  /\.ts$/,
  /\.map$/,
  /(^|\/)test\//,
  /(^|\/)out\//,
  /(^|\/)src\//,
  /(^|\/)node_modules\//,
  /lab/i,
  /bench/i,
  /(^|\/)samples\//,
  /\.test\.js$/,
];
/** And these must be there. */
const REQUIRED = [
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/dist/server.js',
  'extension/dist/client-node.js',
  'extension/dist/dump-engine.js',
  'extension/LICENSE.txt',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/media/icon.png',
  'extension/package.nls.json',
  'extension/package.nls.zh-cn.json',
  'extension/syntaxes/iptables.tmLanguage.json',
  'extension/syntaxes/ipvs.tmLanguage.json',
];

const say = (text) => console.log(`[package] ${text}`);
const kb = (n) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} kB`);

function main() {
  const started = Date.now();
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-package-'));
  try {
    const build = spawnSync(
      process.execPath,
      [path.join(root, 'scripts', 'build.mjs'), '--production', '--outdir', path.join(stage, 'dist')],
      { cwd: root, stdio: 'inherit' },
    );
    if (build.status !== 0) throw new Error(`the production build failed (exit ${build.status ?? build.signal})`);
    for (const name of SHIPPED) {
      const from = path.join(root, name);
      if (fs.existsSync(from)) fs.cpSync(from, path.join(stage, name), { recursive: true });
      else if (name !== 'README.zh-CN.md') throw new Error(`${name} is missing`);
    }
    for (const name of fs.readdirSync(root).filter((n) => /^package\.nls(\.[\w-]+)?\.json$/.test(n)))
      fs.copyFileSync(path.join(root, name), path.join(stage, name));
    // `files` is the npm package's list (the CLI); vsce refuses it next to .vscodeignore, and `bin` is not the VSIX's.
    const staged = { ...pkg };
    delete staged.files;
    delete staged.bin;
    fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
    for (const name of ['extension.js', 'dump-engine.js', 'server.js', 'client-node.js', 'cli.js']) {
      const file = path.join(stage, 'dist', name);
      if (fs.existsSync(file)) say(`bundle dist/${name}: ${kb(fs.statSync(file).size)} (minified)`);
    }
    fs.rmSync(vsixPath, { force: true });
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    if (!fs.existsSync(vsce)) throw new Error('@vscode/vsce is not installed: run `npm ci`');
    // stdin closed: vsce must never stop to ask (it asks when LICENSE or repository is missing).
    const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsixPath], {
      cwd: stage,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, EXTENSIONS_GALLERY: '{}', npm_config_offline: 'true' },
      timeout: 180_000,
    });
    const vsceOut = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
    if (r.status !== 0 || !fs.existsSync(vsixPath))
      throw new Error(`vsce package failed (exit ${r.status ?? r.signal}):\n${vsceOut}`);
    for (const line of vsceOut.split('\n')) if (line.trim()) say(`vsce: ${line.trim()}`);

    const entries = zipEntries(fs.readFileSync(vsixPath));
    const names = entries.map((e) => e.name);
    const bad = names.filter((n) => FORBIDDEN.some((re) => re.test(n.replace(/^extension\//, ''))));
    const missing = REQUIRED.filter((n) => !names.includes(n));
    for (const e of entries.filter((x) => /dist\//.test(x.name)))
      say(`in the VSIX: ${e.name} ${kb(e.size)} (${kb(e.compressed)} compressed)`);
    const size = fs.statSync(vsixPath).size;
    say(
      `${path.relative(process.cwd(), vsixPath) || vsixPath}: ${kb(size)}, ${entries.length} files (limit ${kb(LIMIT)}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (bad.length) throw new Error(`the VSIX holds files that must not ship: ${bad.join(', ')}`);
    if (missing.length) throw new Error(`the VSIX lacks: ${missing.join(', ')}`);
    if (size >= LIMIT) throw new Error(`the VSIX is ${kb(size)}, over the ${kb(LIMIT)} limit`);
    return 0;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** The central directory of a zip file: each entry's name, size and compressed size. */
export function zipEntries(buf) {
  let end = buf.length - 22;
  while (end >= 0 && buf.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip directory');
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    entries.push({ name: buf.toString('utf8', at + 46, at + 46 + nameLength), size, compressed });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (error) {
    console.error(`[package] FAILED: ${error.message}`);
    process.exitCode = 1;
  }
}

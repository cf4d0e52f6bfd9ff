/**
 * `kpp capture node/NAME [--context C] [--kubeconfig F] [--out DIR] [--yes]`: reads a node's rules, addresses and
 * routes (through its kube-proxy pod, or a debug pod after --yes) and writes them to files named so the editor
 * recognises them; prints their paths.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { captureFiles, captureNode, DEFAULT_DEBUG_IMAGE, isClusterError, openNodeAccess, wasCut } from '../../cluster';
import { parseArgs, UsageError } from '../args';
import { langOption } from '../lang';
import { printJson } from '../io';
import {
  confirmer,
  expandShortOptions,
  guarded,
  openSession,
  progressWriter,
  resourceName,
  secondsOption,
} from './clusterArgs';

export async function runCapture(argv: string[]): Promise<number> {
  const args = parseArgs(
    expandShortOptions(argv),
    ['context', 'kubeconfig', 'out', 'namespace', 'timeout', 'image', 'lang'],
    ['yes', 'json', 'verbose'],
  );
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length ? `one node only (got ${args.positionals.join(' ')})` : 'missing node/NAME',
    );
  }
  const node = resourceName(args.positionals[0], ['node', 'nodes', 'no'], 'node');
  const timeoutMs = secondsOption(args.options.get('timeout'), 'timeout');
  const lang = langOption(args);
  return guarded('capture', lang, async () => {
    const session = await openSession({
      kubeconfig: args.options.get('kubeconfig'),
      context: args.options.get('context'),
      namespace: args.options.get('namespace'),
    });
    const ctl = new AbortController();
    const onSignal = () => ctl.abort();
    process.once('SIGINT', onSignal);
    let access: Awaited<ReturnType<typeof openNodeAccess>> | undefined;
    try {
      await session.getNode(node, { signal: ctl.signal });
      const progress = progressWriter(args.flags.has('verbose'));
      access = await openNodeAccess(session, node, {
        confirm: confirmer(args.flags.has('yes'), lang),
        image: args.options.get('image') ?? DEFAULT_DEBUG_IMAGE,
        signal: ctl.signal,
        lang,
        ...(progress ? { onProgress: progress } : {}),
      });
      const cap = await captureNode(access, { signal: ctl.signal, ...(timeoutMs ? { timeoutMs } : {}) });
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      const dir = path.resolve(args.options.get('out') ?? `kpp-capture-${node}-${stamp}`);
      fs.mkdirSync(dir, { recursive: true });
      const written: { file: string; argv: string[]; bytes: number; rules: boolean }[] = [];
      for (const f of captureFiles(node, cap.results)) {
        const file = path.join(dir, f.name);
        fs.writeFileSync(file, f.text);
        written.push({ file, argv: f.argv, bytes: Buffer.byteLength(f.text), rules: f.rules });
      }
      if (args.flags.has('json'))
        printJson({ node, via: cap.via, ...(cap.mode ? { mode: cap.mode } : {}), files: written });
      else for (const w of written) process.stdout.write(`${w.file}\n`);
      const failed = cap.results.filter((r) => /^node-(iptables|ipvs|nft)$/.test(r.id) && r.error);
      const why = failed.map((r) => `${r.argv.join(' ')}: ${r.error}`);
      if (!written.some((w) => w.rules)) {
        process.stderr.write(
          `kpp capture: no rules dump could be read on node ${node} (via ${cap.via})${why.length ? `: ${why.join('; ')}` : ''}\n`,
        );
        return 1;
      }
      // A dump cut at the output limit is left out: say so even when another tool's dump was written.
      const cut = failed.filter(wasCut);
      for (const r of cut) process.stderr.write(`kpp capture: ${r.argv.join(' ')}: ${r.error}; not written\n`);
      return cut.length ? 1 : 0;
    } finally {
      process.removeListener('SIGINT', onSignal);
      if (access) {
        try {
          await access.dispose();
        } catch (e) {
          process.stderr.write(`kpp capture: ${isClusterError(e) ? e.oneLine(lang) : (e as Error).message}\n`);
        }
      }
      session.dispose();
    }
  });
}

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lintIpvs, looksLikeIpvs, parseIpvs } from '../../../src/core/ipvs';
import { corpusDir, repoRoot } from '../../helpers/corpus';

const CORPUS = path.join(corpusDir() ?? path.resolve(repoRoot(__dirname), '..', 'shared', 'corpus'), 'ipvs');

interface Expected {
  format: string;
  services: number;
  realServers: number;
  orphans: number;
  connections: number;
}

/** Counted by reading each file by hand (services, `->` lines under them, `->` lines before any service, entries). */
const EXPECTED: Record<string, Expected> = {
  '001': { format: 'list', services: 7, realServers: 14, orphans: 0, connections: 0 },
  '003': { format: 'list', services: 7, realServers: 12, orphans: 0, connections: 0 },
  '005': { format: 'stats', services: 3, realServers: 10, orphans: 0, connections: 0 },
  '007': { format: 'list', services: 4, realServers: 9, orphans: 0, connections: 0 },
  '009': { format: 'list', services: 10, realServers: 11, orphans: 0, connections: 0 },
  '011': { format: 'connections', services: 0, realServers: 0, orphans: 0, connections: 7 },
  '013': { format: 'list', services: 4, realServers: 7, orphans: 0, connections: 0 },
  '014': { format: 'list', services: 1, realServers: 2, orphans: 0, connections: 0 },
  '015': { format: 'list', services: 2, realServers: 4, orphans: 0, connections: 0 },
  '017': { format: 'list', services: 3, realServers: 4, orphans: 0, connections: 0 },
  '019': { format: 'list', services: 12, realServers: 14, orphans: 1, connections: 0 },
};

function corpusFiles(): string[] {
  return readdirSync(CORPUS)
    .filter((f) => f.endsWith('.txt'))
    .sort();
}

function load(prefix: string): string {
  const file = corpusFiles().find((f) => f.startsWith(`${prefix}-`));
  assert.ok(file, `corpus file ${prefix}-* missing`);
  return readFileSync(path.join(CORPUS, file), 'utf8');
}

describe('shared IPVS corpus', () => {
  it('every file parses and lints without throwing, with no internal errors', (t) => {
    if (!existsSync(CORPUS)) return t.skip(`shared corpus not found at ${CORPUS}`);
    const files = corpusFiles();
    assert.ok(files.length > 0);
    for (const f of files) {
      const text = readFileSync(path.join(CORPUS, f), 'utf8');
      const dump = parseIpvs(text);
      lintIpvs(dump, 'zh-CN');
      assert.ok(!dump.diagnostics.some((d) => d.code === 'ipvs-internal-error'), f);
      assert.ok(looksLikeIpvs(text) >= 0.9, `${f} should look like ipvsadm output`);
    }
  });

  for (const [prefix, want] of Object.entries(EXPECTED)) {
    it(`${prefix}: ${want.services} services, ${want.realServers} real servers, ${want.connections} connections`, (t) => {
      if (!existsSync(CORPUS)) return t.skip(`shared corpus not found at ${CORPUS}`);
      const dump = parseIpvs(load(prefix));
      const got: Expected = {
        format: dump.format,
        services: dump.services.length,
        realServers: dump.services.reduce((n, s) => n + s.realServers.length, 0),
        orphans: dump.orphanRealServers.length,
        connections: dump.connections.length,
      };
      assert.deepEqual(got, want);
    });
  }

  it('009: the NodePort without endpoints gives ipvs-no-real-servers on its line', (t) => {
    if (!existsSync(CORPUS)) return t.skip(`shared corpus not found at ${CORPUS}`);
    const dump = parseIpvs(load('009'));
    const found = lintIpvs(dump).filter((d) => d.code === 'ipvs-no-real-servers');
    assert.equal(found.length, 1);
    const svc = dump.services.find((s) => s.realServers.length === 0)!;
    assert.deepEqual([svc.address, svc.port], ['10.10.50.6', 30020]);
    assert.equal(found[0].span.line, svc.line);
  });

  it('001: persistent 10800 on the apiserver service; 005: stats columns; 015: FWM with Tunnel', (t) => {
    if (!existsSync(CORPUS)) return t.skip(`shared corpus not found at ${CORPUS}`);
    const api = parseIpvs(load('001')).services.find((s) => s.port === 443 && s.address === '10.254.0.1')!;
    assert.deepEqual([api.scheduler, api.persistent, api.realServers.map((r) => r.port)], ['rr', 10800, [6443, 6443]]);
    const big = parseIpvs(load('005')).services.find((s) => s.address === '10.3.0.42')!;
    assert.deepEqual(big.stats, {
      conns: 14209,
      inPkts: 111769,
      outPkts: 74613,
      inBytes: 7207174,
      outBytes: 8334358,
      approximate: false,
    });
    const fwm = parseIpvs(load('015')).services.find((s) => s.protocol === 'FWM')!;
    assert.deepEqual(
      [fwm.fwmark, fwm.scheduler, fwm.realServers.map((r) => r.forward)],
      [1481, 'rr', ['Tunnel', 'Tunnel']],
    );
  });

  it('011: connection states and persistence templates; 017: IPv6 brackets, cut line, bogus 253.0.48.0', (t) => {
    if (!existsSync(CORPUS)) return t.skip(`shared corpus not found at ${CORPUS}`);
    const conns = parseIpvs(load('011')).connections;
    assert.deepEqual(
      conns.map((c) => c.state),
      ['CLOSE', 'TIME_WAIT', 'ESTABLISHED', 'ESTABLISHED', 'NONE', 'NONE', 'ESTABLISHED'],
    );
    assert.deepEqual(conns[5].virtual, { address: '169.46.7.238', port: 65535 });
    const v6 = parseIpvs(load('017'));
    const svc = v6.services.find((s) => s.family === 6)!;
    assert.deepEqual(
      [svc.address, svc.port, svc.realServers.map((r) => r.address)],
      ['fd00:4000::c698', 5001, ['fd00:3000:1::2', 'fd00:3000:2::2']],
    );
    assert.equal(svc.realServers[1].truncated, true);
    const codes = lintIpvs(v6).map((d) => d.code);
    assert.deepEqual(codes.filter((c) => c === 'ipvs-reserved-address').length, 2);
  });
});

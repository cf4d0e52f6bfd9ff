// `/version` per server mode.
import type { ServerMode } from './types';

export function versionInfo(mode: ServerMode): object {
  const common = {
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
  return mode === 'legacy-1.20'
    ? {
        major: '1',
        minor: '20',
        gitVersion: 'v1.20.15',
        ...common,
        buildDate: '2022-01-19T17:23:01Z',
        goVersion: 'go1.15.15',
      }
    : {
        major: '1',
        minor: '31',
        gitVersion: 'v1.31.0',
        ...common,
        buildDate: '2024-08-13T07:28:49Z',
        goVersion: 'go1.22.5',
      };
}

/** Where an executable is: PATH first, then the sbin folders root's tools live in (PATH may lack them). */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function which(binary: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

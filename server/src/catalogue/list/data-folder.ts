import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * This process's own folder for the catalogue's files, inside CATALOGUE_DATA_DIR (docs/operations.md, "The
 * catalogue's files"): `catalogue-<host>-<pid>-<random>`, so two replicas sharing a volume never share a file. A
 * process that died left its folder behind; the next one started on the same host (a container restarted with
 * its volume) removes those whose process is gone, and those of its own pid that it did not make (a pid is often
 * the same number in a container started again).
 */
export function claimDataFolder(dataDir: string | null): string {
  const parent = dataDir ?? tmpdir();
  const host = hostname().replaceAll(/[^A-Za-z0-9.-]/g, '_');
  // The whole name, as mkdtemp makes it (six characters after the pid): a host named `<this host>-<digits>` sharing the
  // volume has folders that only begin like this host's.
  const ownName = new RegExp(`^catalogue-${host.replaceAll('.', '\\.')}-(\\d+)-[A-Za-z0-9]{6}$`);
  for (const name of readdirSync(parent)) {
    const pid = ownName.exec(name)?.[1];
    const folder = join(parent, name);
    if (pid !== undefined && !madeHere.has(folder) && !isRunning(Number(pid))) rmSync(folder, { recursive: true, force: true });
  }
  const folder = mkdtempSync(join(parent, `catalogue-${host}-${process.pid}-`));
  madeHere.add(folder);
  return folder;
}

/** The folders this process made (a process may run several servers: the tests do). */
const madeHere = new Set<string>();

function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

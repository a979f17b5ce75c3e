import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** This process's children, as the kernel lists them. */
const children = (): number[] =>
  readdirSync('/proc/self/task').flatMap((task) =>
    readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );

/** The pids of this process's children running a list's fill (catalogue/list/fills/fill-process.ts). */
export function fillProcesses(): number[] {
  return children().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('fill-process');
    } catch {
      return false; // exited between the two reads
    }
  });
}

/** The files under `folder` that this process holds open, one entry a descriptor. */
export function openFilesUnder(folder: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(`${folder}/`) ? [target] : [];
    } catch {
      return []; // closed between the two reads
    }
  });
}

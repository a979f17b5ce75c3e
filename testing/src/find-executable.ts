import { accessSync, constants } from 'node:fs';

/** The first of `paths` that exists and may be run, or `undefined`: how the helpers find Debian's programs. */
export function findExecutable(paths: readonly string[]): string | undefined {
  return paths.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

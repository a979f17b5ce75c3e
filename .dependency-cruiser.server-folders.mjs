// server/src's folders (http/, catalogue/, the slices, the top level) never reach themselves: production code
// only, since a test, and the test support in server/src/testing, may import any of them.
import base from './.dependency-cruiser.cjs';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...base.forbidden,
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment: 'A folder under server/src never reaches itself through another (docs/architecture.md, the zones).',
      // Until the images slice owns its cache (the catalogue imports images/ today; the ESLint zones mark the same
      // imports), a cycle between those two folders alone is not reported; any cycle through a third folder is.
      from: { path: '^server/src/', pathNot: '^server/src/(catalogue|images)$' },
      to: { circular: true },
    },
  ],
  options: {
    ...base.options,
    exclude: { path: [...base.options.exclude.path, '\\.test\\.ts$', '^server/src/testing/'] },
  },
};

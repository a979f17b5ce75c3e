// `npm run lint:cycles` (part of `npm run lint`): no import cycle, type imports included (ESLint's
// import-x/no-cycle skips `import type`), between modules or between workspaces. Its companion
// .dependency-cruiser.server-folders.mjs holds server/src's folders to the same rule.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module never reaches itself through its imports, type imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-workspace-cycle',
      severity: 'error',
      scope: 'folder',
      comment:
        'The workspaces import one way, tests included: shared ← testing ← server ← client, e2e. A folder cycle through shared ' +
        'or testing, which others import, is a cycle between workspaces; the two rules below keep client and e2e at the end.',
      from: { path: '^(shared|testing)/' },
      to: { circular: true },
    },
    {
      name: 'nothing-imports-the-client',
      severity: 'error',
      comment: 'The browser app is the end of the line: no other workspace imports it.',
      from: { pathNot: '^client/' },
      to: { path: '^client/' },
    },
    {
      name: 'nothing-imports-e2e',
      severity: 'error',
      comment: 'The browser suite is the end of the line: no other workspace imports it.',
      from: { pathNot: '^e2e/' },
      to: { path: '^e2e/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/'] },
    // Type-only imports are dependencies too: a cycle of them is still two modules that cannot be read apart.
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Our workspaces export their sources under the `source` condition, as TypeScript and Vitest read them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['source', 'types', 'import', 'default'] },
  },
};

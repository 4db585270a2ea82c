/**
 * The seams of pybook's source, held by `npm run lint` (dependency-cruiser): which folders may
 * import which. A folder named `client` is browser code, `worker` is a service worker's (browser,
 * no DOM), `shared` runs everywhere, anything else is Node. The compiler holds the same seams with three tsconfigs (tsconfig.node.json,
 * tsconfig.client.json, tsconfig.shared.json): see docs/architecture.md. Over src, bench, tools
 * and test, it also holds that every package imported is declared in package.json, and that
 * pybook's own code needs no devDependency to run.
 */
module.exports = {
  forbidden: [
    {
      name: 'client-imports-node',
      comment: 'Browser code imports only browser code, shared code and packages.',
      severity: 'error',
      from: { path: '(^|/)client/' },
      to: { path: '^src/', pathNot: '(^src/.*client/|^src/.*shared/)' },
    },
    {
      name: 'shared-imports-a-side',
      comment: 'Shared code runs in the browser and in Node: it imports only shared code and packages.',
      severity: 'error',
      from: { path: '(^|/)shared/' },
      to: { path: '^src/', pathNot: '^src/.*shared/' },
    },
    {
      name: 'worker-imports-a-side',
      comment: "A service worker's code imports only its own side, shared code and packages.",
      severity: 'error',
      from: { path: '(^|/)worker/' },
      to: { path: '^src/', pathNot: '(^src/.*worker/|^src/.*shared/)' },
    },
    {
      name: 'node-imports-client',
      comment:
        'Node code never imports browser code (the page shell is rendered on the server through its own bundle: src/theme/client/server-render.tsx).',
      severity: 'error',
      from: { path: '^src/', pathNot: '(^src/.*client/|^src/.*shared/|^src/.*worker/)' },
      to: { path: '^src/.*(client|worker)/' },
    },
    {
      name: 'undeclared-package',
      comment: 'Every package imported (types too) is declared in package.json, not reached through another one.',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'unresolvable',
      comment: 'Every import resolves (a typo, or a package missing from the lockfile).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'runtime-needs-a-dev-package',
      comment: "pybook's own code runs on dependencies: a devDependency is for types, tests, bench and tools only.",
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No two folders import each other, even through others.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
      scope: 'folder',
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^dist/' },
    // Packages' "exports" maps, as Node and TypeScript read them (shiki/textmate, say).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};

// `npm run lint`: ESLint over every workspace, then `prettier --check`. Zero warnings is the bar
// (`--max-warnings 0`), so every rule here is an error in effect.
import js from '@eslint/js';
import tanstackQuery from '@tanstack/eslint-plugin-query';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The server's slices, each owning its routes and caches over the one HTTP layer (server/src/http). */
const SERVER_SLICES = ['products', 'images', 'openapi', 'pages', 'static', 'probes'];

/**
 * The one exception to "slices never import each other": the OpenAPI slice describes the others' routes, so it
 * reads their route objects (http/cached-route.ts), their operations and the constants it documents, and nothing
 * else of theirs.
 */
const DESCRIBED_BY_OPENAPI = [
  'server/src/products/products-routes.ts',
  'server/src/products/products-operations.ts',
  'server/src/products/list-options.ts',
  'server/src/images/image-route.ts',
  'server/src/images/image-operation.ts',
];

/**
 * What http/ imports of the server, relative to server/src (docs/architecture.md, the zones): the folders it shares
 * with the catalogue, and the top-level modules it needs: configuration, the logger, and the one Redis policy (its
 * rate limit's counter, redis-rate-counter.ts, is one of that connection's two users).
 */
const HTTP_IMPORTS = ['http', 'bodies', 'outcomes', 'config.ts', 'logger.ts', 'redis-connection.ts'].map((path) => `./${path}`);

export default tseslint.config(
  {
    ignores: ['**/dist/', '**/node_modules/', 'coverage/', 'test-results/', 'playwright-report/', '.bench/', '.docker-cache/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // The TypeScript programs the typed rules read (docs/decisions/lint-programs.md): one for the code that runs on
      // Node, the browser suite's (with the DOM's types), and the client's below; each reads our workspaces from
      // source (the `source` export condition), so linting needs no build first.
      parserOptions: {
        project: ['./tsconfig.eslint.json', './e2e/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['*/tsconfig.test.json', 'e2e/tsconfig.json'],
          conditionNames: ['source', 'types', 'import', 'default'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      // The house plan's one-way flow: shared is used by both sides and imports nothing of ours; the server and
      // the browser app never import each other; a client feature never reaches up into a page or the app shell.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './shared', from: ['./server', './client', './e2e', './scripts'], message: 'shared/ imports nothing of ours.' },
            { target: './server', from: './client', message: 'The server never imports the browser app.' },
            // The client's component tests run the real server (server/src/testing/test-site.ts): that folder is the one
            // part of the server they may import, and only the tests and their support (client/src/testing) may.
            {
              target: './client',
              from: './server',
              except: ['./src/testing'],
              message: 'The browser app never imports the server; its tests start one through server/src/testing.',
            },
            {
              target: ['./client/src/!(testing)/**/!(*.test).{ts,tsx}', './client/src/!(*.test).{ts,tsx}'],
              from: './server',
              message: 'The browser app never imports the server; only its tests and client/src/testing start one.',
            },
            {
              target: ['./server/src/!(testing)/**/!(*.test).ts', './server/src/!(*.test).ts'],
              from: './server/src/testing',
              message: 'The server never imports its test support.',
            },
            // The server by slice (docs/architecture.md): slices (products, images, openapi, pages, static, probes) use
            // http/ and catalogue/, never each other; catalogue/ and http/ sit side by side, neither importing the
            // other nor a slice, and meet in bodies/ (encoded bodies and their bytes) and outcomes/ (a lookup's cache
            // status, a failure), which import nothing of the server; http/ uses only those and the top-level config,
            // logger and redis-connection. The OpenAPI slice reads the declarations of the routes it describes.
            ...SERVER_SLICES.filter((slice) => slice !== 'openapi').map((slice) => ({
              target: `./server/src/${slice}`,
              from: SERVER_SLICES.filter((other) => other !== slice).map((other) => `./server/src/${other}`),
              message: 'A server slice never imports another slice: share through http/ or catalogue/.',
            })),
            ...SERVER_SLICES.filter((slice) => slice !== 'openapi').map((slice) => ({
              target: './server/src/openapi',
              from: `./server/src/${slice}`,
              except: DESCRIBED_BY_OPENAPI.filter((file) => file.startsWith(`server/src/${slice}/`)).map(
                (file) => `./${file.split('/').pop()}`,
              ),
              message: 'The OpenAPI slice reads only the route declarations and constants of the slices it describes.',
            })),
            {
              target: './server/src/catalogue',
              from: SERVER_SLICES.map((slice) => `./server/src/${slice}`),
              message: 'The catalogue never imports a slice.',
            },
            // The catalogue's rooms (docs/architecture.md, "The catalogue's rooms"), each importing only the rooms below it:
            // upstream/ (the HTTP client) ← list/ ← list/fills/ ← sources/ ← caches/.
            {
              target: './server/src/catalogue/upstream',
              from: ['./server/src/catalogue/list', './server/src/catalogue/sources', './server/src/catalogue/caches'],
              message: 'upstream/, the HTTP client, is the catalogue’s floor: it imports no other room.',
            },
            {
              target: './server/src/catalogue/list',
              from: ['./server/src/catalogue/sources', './server/src/catalogue/caches'],
              message: 'The list and its fills never import a source or a cache: those hold lists, not the other way round.',
            },
            {
              target: './server/src/catalogue/list/*.ts',
              from: './server/src/catalogue/list/fills',
              message: 'A list never starts a fill: a source does (list/fills/ imports list/, not the other way round).',
            },
            {
              target: './server/src/catalogue/sources',
              from: './server/src/catalogue/caches',
              message: 'A source never imports a cache: the caches sit over the sources.',
            },
            {
              target: './server/src/api-description',
              from: [...SERVER_SLICES.map((slice) => `./server/src/${slice}`), './server/src/catalogue'],
              message: 'The OpenAPI document’s shared parts are under every slice that describes its routes: they import none.',
            },
            {
              target: './server/src/catalogue',
              from: './server/src/http',
              message: 'The catalogue never imports http/: what both need lives in bodies/ or outcomes/.',
            },
            {
              target: './server/src/http',
              from: [...SERVER_SLICES.map((slice) => `./server/src/${slice}`), './server/src/catalogue'],
              message: 'http/ is the layer under every slice and the catalogue: it imports neither.',
            },
            {
              target: './server/src/http/!(*.test).ts',
              from: './server/src',
              except: HTTP_IMPORTS,
              message: 'http/ imports only bodies/, outcomes/ and the top-level config.ts, logger.ts and redis-connection.ts.',
            },
            {
              target: ['./server/src/bodies', './server/src/outcomes'],
              from: './server/src',
              except: ['./bodies', './outcomes'],
              message: 'bodies/ and outcomes/ are what http/ and the catalogue share: they import nothing else of the server.',
            },
            {
              target: './client/src/features',
              from: ['./client/src/pages', './client/src/app'],
              message: 'A feature never imports a page or the app shell.',
            },
            {
              target: ['./client/src/components', './client/src/hooks', './client/src/lib', './client/src/styles'],
              from: ['./client/src/features', './client/src/pages', './client/src/app'],
              message: 'App-wide building blocks never import features, pages or the app shell.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    // The bundler's resolution, as Vite builds it; the client's tests start the server from its source, so the
    // program holds it too, but its files are read for their types only.
    languageOptions: { globals: { ...globals.browser }, parserOptions: { project: ['./client/tsconfig.test.json'] } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The product's schemas are zod at run time: the browser takes only their types, so zod stays out of its bundle.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@catalogue/shared/product',
              allowTypeImports: true,
              message: 'Import only types from the product schemas: their zod runtime does not belong in the bundle.',
            },
          ],
        },
      ],
    },
  },
  { files: ['client/src/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  ...tanstackQuery.configs['flat/recommended'].map((config) => ({ ...config, files: ['client/src/**/*.{ts,tsx}'] })),
  {
    // Code that runs in the page: the pre-paint theme script, and what the bench evaluates inside Chromium.
    files: ['client/public/**/*.js', 'scripts/bench/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Plain JavaScript (scripts, this file): no type information to check against.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);

import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const notInTests = ['**/*.test.ts', '**/*.test.tsx'];

/** The server's domain folders (decision 046): each may import storage/, threads/, the top-level problem and metrics, and the protocol, never HTTP. */
const SERVER_DOMAINS = ['credentials', 'identity', 'limits', 'member-tree', 'noisy', 'openid', 'oprf', 'proofs', 'sessions'];
/** The server's assembly and its HTTP layer: what neither domain folders nor storage may import. */
const ASSEMBLY_AND_HTTP = [
  'apps/server/src/app.ts',
  'apps/server/src/app-deps.ts',
  'apps/server/src/route-use-cases.ts',
  'apps/server/src/compose.ts',
  'apps/server/src/server.ts',
  'apps/server/src/routes',
  'apps/server/src/http',
  'apps/server/src/openapi',
];

/** The web app's features (decision 082): one folder per screen, none of which may import another. */
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** One zone a layer may not import from: `target` files may not import `from` files. */
const zone = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  // examples/ are standalone sites in plain JavaScript for other people to copy (decision 023): Prettier
  // formats them, but they are outside the type-checked projects this configuration lints.
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/.tmp/**',
      'e2e/test-results/**',
      'bench/results/**',
      '**/*.config.js',
      'examples/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Fastify handlers and hooks are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // The native addon's loader and install step are CommonJS: require() is how a .node file loads.
  {
    files: ['packages/sodium-ristretto/*.cjs'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  // The house: imports flow one way (packages/protocol ← each app; down the layers of each app named in
  // the zones below), and nothing imports in a circle. no-cycle
  // follows value imports (a type-only import has no run-time order), so the zones below also stop
  // the type imports that ran back up.
  {
    files: ['packages/**/*.ts', 'apps/**/*.ts', 'apps/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['packages/**/*.ts', 'apps/**/*.ts', 'apps/**/*.tsx'],
    ignores: notInTests,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            zone('packages/protocol', 'apps', 'The protocol is shared by both apps and imports neither.'),
            zone('apps/server', 'apps/web', 'The server and the web app share only packages/protocol.'),
            zone('apps/web', 'apps/server', 'The server and the web app share only packages/protocol.'),
            // Server (decision 046): server.ts → compose.ts / app.ts → routes → domain folders → storage;
            // http/ is the Fastify glue that app.ts and the routes use.
            zone(
              'apps/server/src/routes',
              ['apps/server/src/app.ts', 'apps/server/src/server.ts', 'apps/server/src/storage'],
              'Routes validate, call one use case of a domain folder, and reply: they never reach storage.',
            ),
            zone(
              'apps/server/src/http',
              ['apps/server/src/app.ts', 'apps/server/src/server.ts', 'apps/server/src/routes'],
              'http/ is used by app.ts and the routes, not the other way round.',
            ),
            zone(
              'apps/server/src/openapi',
              ['apps/server/src/app.ts', 'apps/server/src/server.ts', 'apps/server/src/routes'],
              'openapi/ is used by app.ts and the routes, not the other way round.',
            ),
            ...SERVER_DOMAINS.map((domain) =>
              zone(
                `apps/server/src/${domain}`,
                ASSEMBLY_AND_HTTP,
                'Domain folders know nothing of HTTP or of how the server is assembled.',
              ),
            ),
            zone(
              'apps/server/src/storage',
              [...ASSEMBLY_AND_HTTP, ...SERVER_DOMAINS.map((domain) => `apps/server/src/${domain}`)],
              'Storage is the bottom layer: routes → domain folders → storage.',
            ),
            zone(
              'apps/server/src/threads',
              [
                'apps/server/src/storage',
                ...SERVER_DOMAINS.map((domain) => `apps/server/src/${domain}`),
                'apps/server/src/routes',
                'apps/server/src/http',
              ],
              'threads/ runs worker threads for every layer above it and imports none of them.',
            ),
            // Web (decision 082): shared → oprf → prover → features → app, and no feature imports another.
            zone(
              'apps/web/src/shared',
              ['apps/web/src/oprf', 'apps/web/src/prover', 'apps/web/src/features', 'apps/web/src/app'],
              'shared/ is used by every other folder of the web app, never the other way round.',
            ),
            zone(
              'apps/web/src/oprf',
              ['apps/web/src/prover', 'apps/web/src/features', 'apps/web/src/app'],
              'The OPRF rounds know nothing of the prover, the screens or the app.',
            ),
            zone(
              'apps/web/src/prover',
              ['apps/web/src/features', 'apps/web/src/app'],
              'The prover serves the screens; it never imports one (the app assembles its worker).',
            ),
            zone('apps/web/src/features', 'apps/web/src/app', 'Features are assembled by app/, never the other way round.'),
            ...WEB_FEATURES.map((feature) => ({
              ...zone(
                `apps/web/src/features/${feature}`,
                'apps/web/src/features',
                'A feature never imports another: what several use lives in shared/, prover/ or oprf/, and app/ composes the screens.',
              ),
              except: [`./${feature}`],
            })),
          ],
        },
      ],
    },
  },
  // Routes parse, call one use case of a domain folder, and reply. The zone above stops them importing
  // storage/; this stops them reaching it through their dependencies (`deps.storage`, `{ storage }`),
  // which an import rule cannot see. The use case is handed the dependencies and reads storage itself.
  {
    files: ['apps/server/src/routes/**/*.ts'],
    ignores: notInTests,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='storage']",
          message: 'Routes never reach storage: call a use case of a domain folder and hand it the dependencies.',
        },
        {
          selector: "MemberExpression[property.value='storage']",
          message: 'Routes never reach storage: call a use case of a domain folder and hand it the dependencies.',
        },
        {
          selector: "ObjectPattern > Property[key.name='storage']",
          message: 'Routes never reach storage: call a use case of a domain folder and hand it the dependencies.',
        },
        // The same key written as a string or a template, computed or not: `{ 'storage': s }`,
        // `{ ['storage']: s }`, `deps[\`storage\`]`.
        {
          selector: "ObjectPattern > Property[key.value='storage']",
          message: 'Routes never reach storage: call a use case of a domain folder and hand it the dependencies.',
        },
        {
          selector: "ObjectPattern > Property[key.quasis.0.value.cooked='storage']",
          message: 'Routes never reach storage: call a use case of a domain folder and hand it the dependencies.',
        },
        {
          selector: "MemberExpression[property.quasis.0.value.cooked='storage']",
          message: 'Routes never reach storage: call a use case of a domain folder and hand it the dependencies.',
        },
      ],
    },
  },
  // limits/ holds every limit's rules and knows nothing of Fastify (decision 081): the hooks that put a
  // route under a limit, and read a request's client, are http/'s.
  {
    files: ['apps/server/src/limits/**/*.ts'],
    ignores: notInTests,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['fastify', '@fastify/*'], message: 'limits/ takes a client address, not a request: Fastify hooks live in http/.' },
          ],
        },
      ],
    },
  },
  // The core runs unchanged in the browser: no Node built-ins, no Node globals.
  {
    files: ['packages/protocol/**/*.ts'],
    ignores: notInTests,
    plugins: { 'import-x': importX },
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: 'packages/protocol runs in the browser too: use Uint8Array.' },
        { name: 'process', message: 'packages/protocol has no environment: take settings as arguments.' },
        { name: 'require', message: 'packages/protocol is ES modules only.' },
      ],
      'import-x/no-nodejs-modules': 'error',
    },
  },
);

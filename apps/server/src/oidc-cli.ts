import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { newClientMetadata } from './services/openid/client-metadata.ts';
import { sectorDocumentProblem } from './services/openid/sector-document.ts';
import { rotateSigningKeys } from './services/openid/signing-keys.ts';
import { openStorage } from './storage/open-storage.ts';

const USAGE = `Sign in with ZeroID: clients and keys (decision 023). The database is the server's (DATA_DIR or DATABASE_URL).
  npm run oidc -- add-client --id ID --redirect-uri URI [--redirect-uri URI…] [--name NAME] [--public]
      [--sector-identifier-uri HTTPS-URI]   (one pseudonym for every client of that URI's host; its JSON array lists the redirect URIs)
  npm run oidc -- list-client
  npm run oidc -- remove-client --id ID
  npm run oidc -- rotate-keys`;

/** A client id is printed in URLs and logs: a short, plain token. */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Absolute http(s) redirect URIs without a fragment (OAuth 2.0 §3.1.2); http only for loopback hosts. */
function redirectUriProblem(uri: string): string | undefined {
  if (!URL.canParse(uri)) return `"${uri}" is not an absolute URL`;
  const url = new URL(uri);
  if (url.hash) return `"${uri}" must not have a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return undefined;
  return `"${uri}" must be https (http only for localhost)`;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      name: { type: 'string' },
      public: { type: 'boolean', default: false },
      'sector-identifier-uri': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined) {
    console.log(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  const fail = (message: string) => {
    console.error(`${message}\n\n${USAGE}`);
    return 2;
  };
  const config = loadConfig();
  const storage = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: 2 });
  try {
    switch (command) {
      case 'add-client': {
        if (values.id === undefined || !CLIENT_ID.test(values.id))
          return fail('--id is required: letters, digits, ".", "_" or "-", at most 64');
        const redirectUris = values['redirect-uri'] ?? [];
        if (redirectUris.length === 0) return fail('--redirect-uri is required');
        const problem = redirectUris.map(redirectUriProblem).find(Boolean);
        if (problem) return fail(problem);
        const sectorIdentifierUri = values['sector-identifier-uri'];
        const sectorProblem =
          sectorIdentifierUri === undefined ? undefined : await sectorDocumentProblem(sectorIdentifierUri, redirectUris);
        if (sectorProblem) return fail(sectorProblem);
        const metadata = newClientMetadata({ id: values.id, redirectUris, name: values.name, public: values.public, sectorIdentifierUri });
        if (!(await storage.oidc.addClient(values.id, JSON.stringify(metadata)))) return fail(`A client "${values.id}" exists already`);
        console.log(JSON.stringify(metadata, null, 2));
        return 0;
      }
      case 'list-client': {
        // The list never shows secrets: they are printed once, when the client is added.
        const clients = (await storage.oidc.listClients()).map((json) => {
          const metadata = JSON.parse(json) as Record<string, unknown>;
          delete metadata.client_secret;
          return metadata;
        });
        console.log(JSON.stringify(clients, null, 2));
        return 0;
      }
      case 'remove-client': {
        if (values.id === undefined) return fail('--id is required');
        if (!(await storage.oidc.removeClient(values.id))) return fail(`There is no client "${values.id}"`);
        console.log(JSON.stringify({ removed: values.id }));
        return 0;
      }
      case 'rotate-keys': {
        console.log(JSON.stringify({ published: await rotateSigningKeys(storage.oidc) }));
        return 0;
      }
      default:
        return fail(`Unknown command "${command}"`);
    }
  } finally {
    await storage.close();
  }
}

process.exitCode = await main(process.argv.slice(2));

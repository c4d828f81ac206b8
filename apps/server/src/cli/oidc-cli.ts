import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { newClientMetadata } from '../openid/client-metadata.ts';
import { sectorDocumentProblem } from '../openid/sector-document.ts';
import { sectorHolder } from '../openid/sector-holder.ts';
import { oidcKeySecretOf } from '../openid/oidc-key-secret.ts';
import { agreedClock, ClocksDisagree, rotateSigningKeys } from '../openid/signing-keys.ts';
import { openStorage } from '../storage/open-storage.ts';

const USAGE = `Sign in with ZeroID: clients and keys (decision 023). The database is the server's (DATA_DIR or DATABASE_URL).
  npm run oidc -- add-client --id ID --redirect-uri URI [--redirect-uri URI…] [--name NAME] [--public]
      [--post-logout-redirect-uri URI…]     (where RP-initiated logout may send the person back)
      [--sector-identifier-uri HTTPS-URI]   (one pseudonym for every client registered with this very URI; its JSON array lists their redirect URIs)
      [--reuse-removed-id]                  (give a removed client's id, and so its pseudonyms, to this client on purpose)
      [--join-sector-of ID]                 (share the sector of the client first registered with this --sector-identifier-uri, on purpose)
  npm run oidc -- list-client
  npm run oidc -- remove-client --id ID     (its tokens stop working; its id is kept and never given to another site by accident)
  npm run oidc -- rotate-keys               (the keys are sealed under OIDC_KEY_SECRET, or the OPRF key, as the server's are;
                                            dated by the database's clock, refused if this host's is a minute off)`;

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
      'post-logout-redirect-uri': { type: 'string', multiple: true },
      'reuse-removed-id': { type: 'boolean', default: false },
      'join-sector-of': { type: 'string' },
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
        const postLogoutRedirectUris = values['post-logout-redirect-uri'] ?? [];
        const problem = [...redirectUris, ...postLogoutRedirectUris].map(redirectUriProblem).find(Boolean);
        if (problem) return fail(problem);
        // A removed client's id is its sector (unless it had a sector_identifier_uri): a new site
        // under that id would receive the removed site's pseudonyms (decision 038).
        const removedAt = await storage.oidc.clientRemovedAt(values.id);
        if (removedAt !== undefined && !values['reuse-removed-id']) {
          return fail(
            `A client "${values.id}" was removed on ${new Date(removedAt).toISOString()}. A client with this id would receive its ` +
              'pseudonyms: the same people would get the same sub. Choose another id, or pass --reuse-removed-id if this is the same site.',
          );
        }
        const sectorIdentifierUri = values['sector-identifier-uri'];
        // A sector belongs to the first client registered with its document (decision 049): another
        // client joins it only when named on purpose, and the document must list both.
        const holder = sectorIdentifierUri === undefined ? undefined : await sectorHolder(storage.oidc, sectorIdentifierUri);
        if (holder && holder.clientId !== values.id && values['join-sector-of'] !== holder.clientId) {
          return fail(
            `The sector "${sectorIdentifierUri}" belongs to the client "${holder.clientId}"` +
              `${holder.removedAt === undefined ? '' : `, removed on ${new Date(holder.removedAt).toISOString()}`}. ` +
              `A client joining it would receive its people's pseudonyms. Pass --join-sector-of ${holder.clientId} if this client is the same owner's site.`,
          );
        }
        const sectorProblem =
          sectorIdentifierUri === undefined
            ? undefined
            : await sectorDocumentProblem(sectorIdentifierUri, [...redirectUris, ...(holder?.redirectUris ?? [])]);
        if (sectorProblem) return fail(sectorProblem);
        const metadata = newClientMetadata({
          id: values.id,
          redirectUris,
          postLogoutRedirectUris,
          name: values.name,
          public: values.public,
          sectorIdentifierUri,
        });
        const added = await storage.oidc.addClient(values.id, JSON.stringify(metadata), undefined, {
          reuseRemoved: values['reuse-removed-id'],
        });
        if (!added) return fail(`A client "${values.id}" exists already`);
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
        // Its records' bytes leave the files too (decision 049).
        await storage.oidc.scrubFreed();
        console.log(JSON.stringify({ removed: values.id }));
        return 0;
      }
      case 'rotate-keys': {
        // Keys are dated by the database's clock; a host whose own clock is far from it is refused (decision 049).
        const now = await agreedClock(storage.oidc).catch((error: unknown) => {
          if (error instanceof ClocksDisagree) return error;
          throw error;
        });
        if (now instanceof ClocksDisagree) {
          console.error(now.message);
          return 1;
        }
        console.log(JSON.stringify({ published: await rotateSigningKeys(storage.oidc, await oidcKeySecretOf(config), now) }));
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

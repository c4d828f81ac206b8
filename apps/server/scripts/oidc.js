// `npm run oidc -- …` (decision 023): the clients and keys CLI, compiled like `npm start` (decision 018),
// so it runs where the server runs, on bare Node.
import { buildServer, serverBuildIsCurrent, sourceDigest } from './build-server.js';

const digest = sourceDigest();
if (!serverBuildIsCurrent(digest)) await buildServer(digest);
process.setSourceMapsEnabled(true);
await import(new URL('../dist/oidc-cli.js', import.meta.url).href);

// `npm run oprf-node` (decision 020): runs the compiled OPRF node with bare Node, as `npm start`
// runs the server (decision 018), building both first when dist/ is missing or was built from
// other sources.
import { buildServer, serverBuildIsCurrent, sourceDigest } from './build-server.js';

const digest = sourceDigest();
if (!serverBuildIsCurrent(digest)) {
  console.log('The server build is missing or out of date; building it (esbuild)…');
  await buildServer(digest);
}
process.setSourceMapsEnabled(true);
await import(new URL('../dist/oprf-node.js', import.meta.url).href);

// `npm run oprf-node` (decision 020): runs the compiled OPRF node with bare Node, as `npm start`
// runs the server (decision 018), building both first when dist/ is missing or was built from
// other sources.
import { buildServer, serverBuildIsCurrent, sourceDigest } from './build-server.js';

const digest = sourceDigest();
// Several nodes started at once from one checkout would each build; one that loses the race to
// replace dist/ builds again, once the others are done.
for (let attempt = 1; !serverBuildIsCurrent(digest); attempt++) {
  console.log('The server build is missing or out of date; building it (esbuild)…');
  try {
    await buildServer(digest);
  } catch (error) {
    if (attempt >= 3) throw error;
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
  }
}
process.setSourceMapsEnabled(true);
await import(new URL('../dist/oprf-node.js', import.meta.url).href);

// `npm start` (decision 018): runs the compiled server with bare Node, no development loader,
// building it first when dist/ is missing or was built from other sources.
import { buildServer, serverBuildIsCurrent, sourceDigest } from './build-server.js';

const digest = sourceDigest();
if (!serverBuildIsCurrent(digest)) {
  console.log('The server build is missing or out of date; building it (esbuild)…');
  await buildServer(digest);
}
// Stack traces name the TypeScript sources, as they did when the server ran under tsx.
process.setSourceMapsEnabled(true);
// Through a URL, so that TypeScript's check of this file does not follow it into the bundle.
await import(new URL('../dist/server.js', import.meta.url).href);

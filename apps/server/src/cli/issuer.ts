// `npm run issuer -- create|public-key|issue …`: an issuer's tool, run with tsx (no build step), never
// by the server. Relative paths are taken from where npm was started (INIT_CWD), not from the repo root.
import { runIssuerCli } from './issuer-cli.ts';

const code = await runIssuerCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.env.INIT_CWD || process.cwd(),
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
});
process.exitCode = code;

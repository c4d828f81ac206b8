// `npm run oprf -- split|refresh …`: an operator's tool, run with tsx (no build step), never by the
// server. Relative paths are taken from where npm was started (INIT_CWD), not from the repo root.
import { runOprfCli } from './oprf-cli.ts';

const code = await runOprfCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.env.INIT_CWD || process.cwd(),
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
});
process.exitCode = code;

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ProtocolInputError } from '@zeroid/protocol';
import { createIssuerKey, issueCredential } from '@zeroid/protocol/credential';
import { UsageError, type CliContext } from './cli-context.ts';
import { IssuerKeyFileError, readIssuerKeyFile, writeIssuerKeyFile } from './issuer-key-file.ts';

const USAGE = `Usage:
  npm run issuer -- create --name NAME --out FILE
  npm run issuer -- public-key --key FILE
  npm run issuer -- issue --key FILE --id TEXT [--expires YYYY-MM-DD]

create      makes an issuer key in FILE (mode 0600; keep it secret) and prints its public key.
public-key  prints the key's public key, one line: what a server lists in TRUSTED_ISSUERS.
issue       prints one credential, one line, for the person whose ID is TEXT: they paste it where
            the app asks "Enter ID:". Valid through the whole of the --expires day (UTC), or for ever.`;

const OPTIONS = {
  name: { type: 'string' },
  out: { type: 'string' },
  key: { type: 'string' },
  id: { type: 'string' },
  expires: { type: 'string' },
} as const;
const ALLOWED = { create: ['name', 'out'], 'public-key': ['key'], issue: ['key', 'id', 'expires'] } as const;
type Command = keyof typeof ALLOWED;

/**
 * `npm run issuer -- create|public-key|issue …` as a function: returns the exit code (0 done, 1
 * failed, 2 bad arguments) so tests call it in-process. Never prints the private key; `issue` prints
 * the credential (the ID is in it) and nothing else, so its output can be piped.
 */
export async function runIssuerCli(argv: string[], context: CliContext): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (!command || !(command in ALLOWED)) throw new UsageError(`Unknown command "${command ?? ''}".`);
    const options = parseOptions(rest, command as Command);
    const file = (name: 'out' | 'key') => path.resolve(context.cwd, options[name]!);
    if (command === 'create') {
      if (!options.name?.trim()) throw new UsageError('--name must not be empty.');
      context.print(await writeIssuerKeyFile(file('out'), options.name.trim(), createIssuerKey()));
    } else if (command === 'public-key') {
      context.print((await readIssuerKeyFile(file('key'))).publicKey);
    } else {
      const { privateKey } = await readIssuerKeyFile(file('key'));
      context.print(issueCredential(privateKey, options.id!, options.expires === undefined ? {} : { expires: options.expires }));
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.printError(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof IssuerKeyFileError || error instanceof ProtocolInputError) {
      context.printError(error instanceof ProtocolInputError ? `--id or --expires: ${error.message}` : error.message);
      return 1;
    }
    throw error;
  }
}

function parseOptions(args: string[], command: Command): Partial<Record<keyof typeof OPTIONS, string>> {
  let values: Partial<Record<keyof typeof OPTIONS, string>>;
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const allowed: readonly string[] = ALLOWED[command];
  for (const name of Object.keys(values)) if (!allowed.includes(name)) throw new UsageError(`${command} takes no --${name}.`);
  const required = command === 'create' ? ['name', 'out'] : command === 'public-key' ? ['key'] : ['key', 'id'];
  for (const name of required) if (values[name as keyof typeof OPTIONS] === undefined) throw new UsageError(`${command} needs --${name}.`);
  return values;
}

// `npm run settings:readme`: writes the README's configuration tables from the schemas, the one
// place each setting is declared (decision 046). `settings-readme.test.ts` fails when it was not run.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { serverSettings } from '../settings/server-settings.ts';
import { nodeSettings } from '../oprf-node/node-config.ts';
import { withSettingsTables } from '../settings/settings-table.ts';

export const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));

/** The README as it should read: its tables drawn from the schemas, formatted as `npm run format` would. */
export async function currentReadme(readme: string): Promise<string> {
  const options = await prettier.resolveConfig(README);
  return prettier.format(withSettingsTables(readme, { server: serverSettings, 'oprf-node': nodeSettings }), {
    ...options,
    filepath: README,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const before = await readFile(README, 'utf8');
  const after = await currentReadme(before);
  await writeFile(README, after);
  console.log(before === after ? 'README.md: the configuration tables were up to date' : 'README.md: configuration tables written');
}

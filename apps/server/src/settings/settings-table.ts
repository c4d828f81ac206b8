import type { TObject, TSchema } from '@sinclair/typebox';
import type { SettingNotes } from './read-settings.ts';

type Setting = TSchema & SettingNotes;

/** Each setting of `schema` as the README and `--help` show it: name, default, meaning. */
export function settingRows(schema: TObject): { name: string; fallback: string; meaning: string }[] {
  return Object.entries(schema.properties as Record<string, Setting>).map(([name, setting]) => ({
    name,
    fallback: setting['x-default'] ?? (setting.default === undefined ? 'unset' : `\`${String(setting.default)}\``),
    meaning: [setting.description ?? '', ...(setting['x-aliases'] ?? []).map((alias) => `(also read as \`${alias}\`, its earlier name)`)]
      .filter(Boolean)
      .join(' '),
  }));
}

/** The README's table of `schema` (Prettier aligns it). */
export function settingsTable(schema: TObject): string {
  const rows = settingRows(schema).map(({ name, fallback, meaning }) => `| \`${name}\` | ${fallback} | ${meaning} |`);
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `--help`: what the process is, then each setting on one line, without the README's Markdown. */
export function settingsHelp(title: string, schema: TObject): string {
  const rows = settingRows(schema);
  const plain = (text: string) => text.replace(/\*\*|`/g, '');
  const nameWidth = Math.max(...rows.map((row) => row.name.length));
  const fallbackWidth = Math.max(...rows.map((row) => plain(row.fallback).length));
  return [
    title,
    'Every setting is an environment variable; a bad value stops the process with a list of what is wrong.',
    '',
    ...rows.map((row) => `  ${row.name.padEnd(nameWidth)}  ${plain(row.fallback).padEnd(fallbackWidth)}  ${plain(row.meaning)}`),
  ].join('\n');
}

/**
 * `readme` with each generated table in place: between `<!-- settings: NAME -->` and
 * `<!-- /settings -->`, the table of `tables[NAME]` (`npm run settings:readme` writes it; a test
 * fails when the README is behind the schemas).
 */
export function withSettingsTables(readme: string, tables: Record<string, TObject>): string {
  return readme.replace(
    /(<!-- settings: ([\w-]+) -->)[\s\S]*?(<!-- \/settings -->)/g,
    (_whole, open: string, name: string, close: string) => {
      const schema = tables[name];
      if (!schema) throw new Error(`README names settings "${name}", which no schema declares`);
      return `${open}\n\n${settingsTable(schema)}\n\n${close}`;
    },
  );
}

import envSchema, { type EnvSchemaOpt } from 'env-schema';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { ConfigError } from './config-error.ts';

/**
 * What a setting's TypeBox schema may carry beside its type, range, `default` and `description`:
 * words for the README, `--help` and the messages, which Ajv is told to accept and ignore.
 */
export interface SettingNotes {
  /** The default as the README says it, where it is not a plain value ('cores', 'majority of nodes'). */
  'x-default'?: string;
  /** The message for a refused value, where the pattern would tell an operator nothing. */
  'x-problem'?: string;
  /** Earlier names still read (decision 046): a value under one of them counts as this setting's. */
  'x-aliases'?: string[];
}
const NOTES = ['x-default', 'x-problem', 'x-aliases'] as const;

/** The problems of one configuration, listed in the order the schema declares its settings (the README's order). */
export class Problems {
  private readonly found: { name: string; message: string }[] = [];
  constructor(private readonly names: string[]) {}

  add(name: string, message: string): void {
    this.found.push({ name, message });
  }

  /** Throws one ConfigError listing every problem, if there is any. */
  throwIfAny(): void {
    if (this.found.length === 0) return;
    const rank = (name: string) => (this.names.includes(name) ? this.names.indexOf(name) : this.names.length);
    throw new ConfigError([...this.found].sort((a, b) => rank(a.name) - rank(b.name)).map((problem) => problem.message));
  }
}

/**
 * Reads the settings `schema` declares from `env` with env-schema: Ajv coerces each value to its
 * type, fills in the defaults and reports every error at once. An empty variable counts as unset, as
 * it always has. A refused value is replaced by its default, so that the caller can go on with its
 * own checks across settings and throw every problem together (`problems.throwIfAny()`).
 */
export function readSettings<T extends TObject>(schema: T, env: NodeJS.ProcessEnv): { values: Static<T>; problems: Problems } {
  const settings = Object.entries(schema.properties) as [string, TSchema & SettingNotes][];
  const problems = new Problems(settings.map(([name]) => name));
  const data: Record<string, string> = {};
  /** The name each value was given under: an earlier name's value is refused in that name. */
  const givenAs = new Map<string, string>();
  for (const [name, setting] of settings) {
    const given = [name, ...(setting['x-aliases'] ?? [])].filter((candidate) => env[candidate]);
    if (given.length === 0) continue;
    if (new Set(given.map((candidate) => env[candidate])).size > 1) {
      problems.add(name, `${given.join(' and ')} name one setting: set only ${name}`);
    }
    data[name] = env[given[0]!]!;
    givenAs.set(name, given[0]!);
  }

  const first = validate(schema, data);
  if ('values' in first) return { values: first.values, problems };
  const refused = new Set<string>();
  for (const error of first.errors) {
    const name = error.instancePath.slice(1);
    if (refused.has(name)) continue;
    refused.add(name);
    problems.add(name, problemOf(givenAs.get(name) ?? name, schema.properties[name] as TSchema & SettingNotes, data[name]));
  }
  const again = validate(schema, Object.fromEntries(Object.entries(data).filter(([name]) => !refused.has(name))));
  if (!('values' in again)) throw new Error('settings without their refused values should be valid');
  return { values: again.values, problems };
}

type Ajv = Exclude<NonNullable<EnvSchemaOpt['ajv']>, { customOptions: unknown }>;
/**
 * Ajv (strict) accepts only the keywords it knows: the notes, which validate nothing, are taught to
 * the first instance env-schema makes, which is then handed back each time with the validators it
 * compiled (a new one per call compiles them all again: docs/benchmarks.md, "Settings read").
 */
let ajv: Ajv | undefined;
const withNotes = (fresh: Ajv): Ajv => (ajv = fresh.addVocabulary([...NOTES]));

/** The values, coerced and defaulted, or what Ajv found wrong. */
function validate<T extends TObject>(
  schema: T,
  data: Record<string, string>,
): { values: Static<T> } | { errors: { instancePath: string }[] } {
  try {
    // The same schema object each time, so that Ajv compiles it once (env-schema marks it closed,
    // additionalProperties: false); the data is a copy, which Ajv coerces in place.
    return { values: envSchema<Static<T>>({ schema, data: { ...data }, env: false, ajv: ajv ?? { customOptions: withNotes } }) };
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string }[] }).errors;
    if (!errors) throw error;
    return { errors };
  }
}

/** One line that names the setting, says what it takes and, for a number, what it got. */
function problemOf(name: string, setting: TSchema & SettingNotes, raw: string | undefined): string {
  if (setting['x-problem']) return setting['x-problem'];
  if (setting.type === 'integer' || setting.type === 'number') {
    const kind = setting.type === 'integer' ? 'an integer' : 'a number';
    return `${name} must be ${kind} from ${setting.minimum} to ${setting.maximum} (got "${raw}")`;
  }
  if (Array.isArray(setting.enum)) return `${name} must be one of ${setting.enum.join(', ')}`;
  return `${name} is not valid`;
}

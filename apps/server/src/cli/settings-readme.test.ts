import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentReadme, README } from './settings-readme.ts';

describe("the README's configuration tables", () => {
  it('are the ones the schemas draw (run npm run settings:readme after changing a setting)', async () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toContain('<!-- settings: server -->');
    expect(readme).toContain('<!-- settings: oprf-node -->');
    expect(await currentReadme(readme)).toBe(readme);
  });
});

import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core on the page as it is now: zero violations of WCAG 2.x A and AA. */
export async function expectNoViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(
    results.violations.map((v) => `${state}: ${v.id} (${v.nodes.length}) ${v.help}`),
    `axe violations on ${state}`,
  ).toEqual([]);
}

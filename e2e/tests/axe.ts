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

/** The same at a desktop's width and a phone's (390 px), for a state that must hold at both. */
export async function expectNoViolationsAtEverySize(page: Page, state: string) {
  const viewport = page.viewportSize();
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await expectNoViolations(page, `${state} at ${size.width} px`);
  }
  if (viewport) await page.setViewportSize(viewport);
}

import { describe, expect, it } from 'vitest';
import { withFormActionSource } from './form-post-csp.ts';

describe('withFormActionSource', () => {
  it("adds the site's origin to form-action only, keeping every other directive as it was", () => {
    const policy = "default-src 'self';script-src 'self' 'sha256-abc=';form-action 'self';frame-ancestors 'none'";
    expect(withFormActionSource(policy, 'https://site.example')).toBe(
      "default-src 'self';script-src 'self' 'sha256-abc=';form-action 'self' https://site.example;frame-ancestors 'none'",
    );
  });

  it('leaves a policy without form-action unchanged (nothing restricts the post there)', () => {
    expect(withFormActionSource("default-src 'self'; form-actions x", 'https://site.example')).toBe("default-src 'self'; form-actions x");
  });
});

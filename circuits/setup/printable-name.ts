/**
 * A contribution's name is shown to whoever verifies the setup, and read back from snarkjs's report:
 * a control or format character (a line break, U+2028, a bidirectional override, a zero-width space,
 * a terminal escape) could fake a line of that report, reorder what a reader sees, or split a
 * contribution's header. No honest contributor needs one.
 */
const UNPRINTABLE = /[\p{C}\u2028\u2029]/u;

export function hasUnprintable(name: string): boolean {
  return UNPRINTABLE.test(name);
}

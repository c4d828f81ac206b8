import { powersOfTau, recordingLogger, zKey, type Logger } from './snarkjs-setup.ts';

/** One contribution as its file records it: snarkjs's name and hash, and the beacon's value if it was one. */
export interface FileContribution {
  name: string;
  /** snarkjs's contribution hash (phase 1: the response hash; phase 2: the contribution hash), hex. */
  hash: string;
  beacon?: { value: string; iterationsExp: number };
}

/** What a verified file holds. */
export interface ReadChain {
  contributions: FileContribution[];
}

/** The hex of snarkjs's `formatHash` (a title line, then four lines of four 32-bit words). */
const hashOf = (text: string) => text.split('\n').slice(1).join('').replace(/\s+/g, '');

function addBeaconLine(last: FileContribution | undefined, text: string): void {
  if (!last) return;
  const generator = /^Beacon generator: ([0-9a-f]+)$/.exec(text);
  if (generator) last.beacon = { value: generator[1]!, iterationsExp: last.beacon?.iterationsExp ?? NaN };
  const exp = /^Beacon iterations Exp: (\d+)$/.exec(text);
  if (exp) last.beacon = { value: last.beacon?.value ?? '', iterationsExp: Number(exp[1]) };
}

/**
 * The contributions read, first to last, after checking that they are numbered 1 to n and that the
 * report mentions no contribution number that was not read (a header the reading missed).
 */
function inOrder(
  byId: Map<number, FileContribution>,
  messages: readonly { text: string }[],
  mention: RegExp,
  what: string,
): FileContribution[] {
  const ids = [...byId.keys()].sort((a, b) => a - b);
  if (ids.some((id, i) => id !== i + 1)) throw new Error(`The contributions of ${what} are not numbered 1 to ${ids.length}`);
  for (const { text } of messages) {
    for (const match of text.matchAll(mention)) {
      if (!byId.has(Number(match[1]))) throw new Error(`snarkjs reports contribution #${match[1]} of ${what}, which could not be read`);
    }
  }
  return ids.map((id) => byId.get(id)!);
}

/**
 * Verifies a powers-of-tau file with snarkjs (every contribution follows the one before it, and the
 * powers follow from the last) and reads its contributions, first to last, from what snarkjs reports.
 * `prepared`: the file carries the Lagrange bases phase 2 needs; `power`: its size, 2^power.
 */
export async function readPhase1(file: string, echo?: Logger): Promise<ReadChain & { valid: boolean; prepared: boolean; power: number }> {
  const log = recordingLogger(echo);
  // A file snarkjs cannot even read (a point off the curve) is as invalid as one whose chain breaks.
  const valid = await powersOfTau.verify(file, log).catch(() => false);
  const byId = new Map<number, FileContribution>();
  let current: FileContribution | undefined;
  let power = NaN;
  for (const { text } of log.messages) {
    const header = /^Contribution #(\d+): ([\s\S]*)$/.exec(text);
    const powerLine = /^power: 2\*\*(\d+)$/.exec(text);
    if (powerLine) power = Number(powerLine[1]);
    if (header) {
      current = { name: header[2]!, hash: '' };
      byId.set(Number(header[1]), current);
    } else if (current && text.startsWith('Response Hash:') && current.hash === '') {
      // snarkjs prints the contribution's response hash, then (under the same title) the previous
      // contribution's next challenge: the first one is this contribution's hash.
      current.hash = hashOf(text);
    } else {
      addBeaconLine(current, text);
    }
  }
  const contributions = inOrder(byId, log.messages, /^Contribution #(\d+)/gm, 'phase 1');
  const prepared = !log.messages.some(({ text }) => text.includes('does not contain phase2 precalculated values'));
  return { valid, prepared, power, contributions };
}

/**
 * Verifies a proving key with snarkjs against the R1CS and a prepared phase 1 (phase 2 started from
 * exactly these, and every contribution follows the one before) and reads its contributions, first to
 * last, and the circuit hash its start recorded.
 */
export async function readPhase2(
  r1cs: string,
  preparedPhase1: string,
  zkey: string,
  echo?: Logger,
): Promise<ReadChain & { valid: boolean; circuitHash: string; errors: string[] }> {
  const log = recordingLogger(echo);
  const valid = await zKey.verifyFromR1cs(r1cs, preparedPhase1, zkey, log).catch((error: unknown) => {
    log.error(error instanceof Error ? error.message : String(error));
    return false;
  });
  const byId = new Map<number, FileContribution>();
  let current: FileContribution | undefined;
  let circuitHash = '';
  for (const { level, text } of log.messages) {
    if (level === 'debug') continue;
    // A name may hold anything, a line break too: the header ends at the first ":\n" after it.
    const header = /^contribution #(\d+) ([\s\S]*?):\n/.exec(text);
    if (text.startsWith('Circuit Hash: ')) circuitHash = hashOf(text);
    else if (header) {
      current = { name: header[2]!, hash: hashOf(text) };
      byId.set(Number(header[1]), current);
    } else addBeaconLine(current, text);
  }
  const contributions = inOrder(byId, log.messages, /^contribution #(\d+)/gm, 'the proving key');
  return { valid, circuitHash, contributions, errors: log.messages.filter((m) => m.level === 'error').map((m) => m.text) };
}

/** One line of bench/results/latest.json. */
export interface BenchEntry {
  name: string;
  unit: string;
  /** Median over `runs`. */
  value: number;
  min: number;
  max: number;
  runs: number;
  /** The same quantity for the baseline, measured in the same run; see `baselineLabel`. */
  baseline: number;
  /** value / baseline. */
  ratio: number;
  better: 'higher' | 'lower';
  /** What the baseline is, in words (not part of the required shape, kept for the report). */
  baselineLabel: string;
}

export const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const round = (n: number) => Number(n.toPrecision(4));

/** Summarises samples of a measurement and of its baseline into one entry. */
export function entry(
  name: string,
  unit: string,
  better: BenchEntry['better'],
  samples: number[],
  baselineSamples: number[],
  baselineLabel: string,
): BenchEntry {
  if (samples.length === 0 || baselineSamples.length === 0) throw new Error(`${name}: no samples`);
  const value = median(samples);
  const baseline = median(baselineSamples);
  return {
    name,
    unit,
    value: round(value),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    runs: samples.length,
    baseline: round(baseline),
    ratio: baseline === 0 ? 0 : round(value / baseline),
    better,
    baselineLabel,
  };
}

/** Runs `measure` `runs` times in sequence and returns the samples. */
export async function repeat<T>(runs: number, measure: (run: number) => Promise<T>): Promise<T[]> {
  const samples: T[] = [];
  for (let run = 0; run < runs; run++) samples.push(await measure(run));
  return samples;
}

/** The middle value of the samples (the upper of the two middles for an even count), for a test's ratios and timings. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

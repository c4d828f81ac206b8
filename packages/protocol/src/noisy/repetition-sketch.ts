/**
 * The code-offset secure sketch (Juels–Wattenberg; Dodis et al.) with a repetition code of length
 * `repeat`: the sketch is w ⊕ C(m) for a random message m, each message bit repeated `repeat` times.
 * A reading w′ recovers m by majority in each block of (w′ ⊕ sketch), so any block with fewer than
 * half its bits wrong decodes. It is the simplest sketch there is, written here to compare against the
 * lockers on the same data: the sketch itself is a function of the template, shows the XOR of every
 * two bits of a block in the clear, and so cannot be hidden behind the OPRF (decision 077).
 */
export function sketchTemplate(bits: Uint8Array, message: Uint8Array, repeat: number): Uint8Array {
  if (message.length * repeat > bits.length) throw new RangeError('The template is shorter than the codeword');
  const sketch = new Uint8Array(message.length * repeat);
  for (let i = 0; i < sketch.length; i++) sketch[i] = bits[i]! ^ message[Math.floor(i / repeat)]!;
  return sketch;
}

/** Majority decoding of (reading ⊕ sketch) block by block: the message, if at most ⌊(repeat−1)/2⌋ bits of a block are wrong. */
export function recoverFromSketch(reading: Uint8Array, sketch: Uint8Array, repeat: number): Uint8Array {
  const message = new Uint8Array(sketch.length / repeat);
  for (let block = 0; block < message.length; block++) {
    let ones = 0;
    for (let i = block * repeat; i < (block + 1) * repeat; i++) ones += reading[i]! ^ sketch[i]!;
    message[block] = ones * 2 > repeat ? 1 : 0;
  }
  return message;
}

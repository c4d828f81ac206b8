import * as snarkjs from 'snarkjs';

/** snarkjs's logger interface (the subset its setup functions call). */
export interface Logger {
  info(m: string): void;
  debug(m: string): void;
  warn(m: string): void;
  error(m: string): void;
}

/** The parts of snarkjs 0.7 the ceremony uses, typed as its code has them (@types/snarkjs has `powersOfTau.verify` wrong and no `curves`). */
export const { powersOfTau, zKey, curves, r1cs } = snarkjs as unknown as {
  r1cs: { info(file: string, logger?: Logger): Promise<{ nConstraints: number; nPubInputs: number; nOutputs: number }> };
  curves: { getCurveFromName(name: string): Promise<unknown> };
  powersOfTau: {
    newAccumulator(curve: unknown, power: number, file: string, logger?: Logger): Promise<unknown>;
    contribute(old: string, next: string, name: string, entropy: string, logger?: Logger): Promise<Uint8Array>;
    beacon(old: string, next: string, name: string, beacon: string, iterationsExp: number, logger?: Logger): Promise<Uint8Array>;
    preparePhase2(old: string, next: string, logger?: Logger): Promise<void>;
    verify(file: string, logger?: Logger): Promise<boolean>;
  };
  zKey: {
    newZKey(r1cs: string, ptau: string, zkey: string, logger?: Logger): Promise<Uint8Array | number>;
    contribute(old: string, next: string, name: string, entropy: string, logger?: Logger): Promise<Uint8Array>;
    beacon(old: string, next: string, name: string, beacon: string, iterationsExp: number, logger?: Logger): Promise<Uint8Array>;
    verifyFromR1cs(r1cs: string, ptau: string, zkey: string, logger?: Logger): Promise<boolean>;
    exportVerificationKey(zkey: string): Promise<object>;
  };
};

/** A logger that keeps every message, by level: snarkjs reports what a file contains only in its log. */
export function recordingLogger(echo?: Logger): Logger & { messages: Array<{ level: keyof Logger; text: string }> } {
  const messages: Array<{ level: keyof Logger; text: string }> = [];
  const keep = (level: keyof Logger) => (text: string) => {
    messages.push({ level, text: String(text) });
    if (level !== 'debug') echo?.[level](text);
  };
  return { messages, info: keep('info'), debug: keep('debug'), warn: keep('warn'), error: keep('error') };
}

export const consoleLogger: Logger = {
  info: (m) => console.log(m),
  debug: () => {},
  warn: (m) => console.warn(m),
  error: (m) => console.error(m),
};

/** snarkjs keeps a bn128 curve (with worker threads) alive per process; a CLI ends it before exiting. */
export async function releaseCurve(): Promise<void> {
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
}

/** The part of ffjavascript (no types of its own) that the batch verifier uses. */
declare module 'ffjavascript' {
  type Buffer = Uint8Array;
  interface CurveGroup {
    fromObject(point: unknown[]): Buffer;
    toJacobian(point: Buffer): Buffer;
    toAffine(point: Buffer): Buffer;
    isValid(point: Buffer): boolean;
    isZero(point: Buffer): boolean;
    neg(point: Buffer): Buffer;
    add(a: Buffer, b: Buffer): Buffer;
    timesScalar(point: Buffer, scalar: bigint | Buffer): Buffer;
  }
  interface Field12 {
    one: Buffer;
    mul(a: Buffer, b: Buffer): Buffer;
    eq(a: Buffer, b: Buffer): boolean;
  }
  export interface Bn128 {
    r: bigint;
    G1: CurveGroup;
    G2: CurveGroup;
    Gt: Field12;
    prepareG1(jacobian: Buffer): Buffer;
    prepareG2(jacobian: Buffer): Buffer;
    millerLoop(preparedG1: Buffer, preparedG2: Buffer): Buffer;
    finalExponentiation(a: Buffer): Buffer;
    terminate(): Promise<void>;
  }
  export function buildBn128(singleThread?: boolean): Promise<Bn128>;
}

// wasmbuilder and wasmcurves (iden3, GPL-3.0) ship no types: what oprf/baby-jubjub-wasm/ uses of them.
declare module 'wasmbuilder' {
  /** WebAssembly instructions, as bytes. */
  export type Code = number[];
  export interface CodeBuilder {
    call(name: string, ...args: Code[]): Code;
    getLocal(name: string): Code;
    setLocal(name: string, value: Code): Code;
    i32_const(n: number): Code;
    i32_add(a: Code, b: Code): Code;
    i32_mul(a: Code, b: Code): Code;
    i32_eq(a: Code, b: Code): Code;
    i32_lt_u(a: Code, b: Code): Code;
    i32_ge_u(a: Code, b: Code): Code;
    i32_or(a: Code, b: Code): Code;
    i32_load8_u(address: Code): Code;
    if(condition: Code, then: Code, otherwise?: Code): Code;
    block(body: Code): Code;
    loop(...body: Code[]): Code;
    br_if(depth: number, condition: Code): Code;
    br(depth: number): Code;
  }
  export interface FunctionBuilder {
    addParam(name: string, type: 'i32' | 'i64'): void;
    addLocal(name: string, type: 'i32' | 'i64'): void;
    getCodeBuilder(): CodeBuilder;
    addCode(...code: Code[]): void;
  }
  export class ModuleBuilder {
    /** The first address no allocation holds. */
    free: number;
    setMemory(pages: number): void;
    alloc(bytesOrSize: number[] | number): number;
    addFunction(name: string): FunctionBuilder;
    exportFunction(name: string): void;
    build(): Uint8Array<ArrayBuffer>;
  }
}

declare module 'wasmcurves/src/build_f1m.js' {
  import type { ModuleBuilder } from 'wasmbuilder';
  /** Adds the Montgomery field modulo q under `prefix` (prefix_mul, prefix_add, …); returns the prefix. */
  export default function buildF1m(module: ModuleBuilder, q: bigint, prefix: string): string;
}

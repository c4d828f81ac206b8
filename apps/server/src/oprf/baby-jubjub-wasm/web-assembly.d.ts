// Node has had the WebAssembly JavaScript API forever, but @types/node 20 (decision 078: code is written for Node 20)
// declares none of it as values: what wasm-baby-jubjub.ts uses.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}

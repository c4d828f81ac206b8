import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

// The generator ffjavascript bundles, at the versions it pins (0.3.1 pins both exactly).
const require = createRequire(import.meta.url);
const { buildBn128 } = require('wasmcurves') as { buildBn128: (builder: unknown) => void };
const { ModuleBuilder } = require('wasmbuilder') as {
  ModuleBuilder: new () => { setMemory(pages: number): void; build(): number[]; modules: Record<string, Record<string, unknown>> };
};

/** ffjavascript's browser build, which snarkjs loads in the prover worker. */
const FFJAVASCRIPT = /[\\/]ffjavascript[\\/]build[\\/]browser\.esm\.js$/;

/** Where ffjavascript 0.3.1's `buildBn128` generates the curve's WebAssembly, statement by statement. */
const GENERATION_START =
  '    const moduleBuilder = new ModuleBuilder();\n    moduleBuilder.setMemory(25);\n    buildBn128$1(moduleBuilder);\n';
const GENERATION_END = '    bn128wasm.r = moduleBuilder.modules.bn128.r;\n';

/**
 * The BN254 WebAssembly module and its layout, generated here as ffjavascript would generate it in
 * the browser, as a JavaScript expression.
 */
export function prebuiltBn128Expression(): string {
  const builder = new ModuleBuilder();
  builder.setMemory(25);
  buildBn128(builder);
  const bn128 = builder.modules.bn128!;
  const layout = {
    pq: builder.modules.f1m!.pq,
    pr: builder.modules.frm!.pq,
    ...Object.fromEntries(
      ['pG1gen', 'pG1zero', 'pG1b', 'pG2gen', 'pG2zero', 'pG2b', 'pOneT', 'prePSize', 'preQSize'].map((k) => [k, bn128[k]]),
    ),
    n8q: 32,
    n8r: 32,
    q: bn128.q,
    r: bn128.r,
  };
  const code = Buffer.from(builder.build()).toString('base64');
  return `Object.assign(${JSON.stringify(layout)}, { code: Uint8Array.from(atob(${JSON.stringify(code)}), (c) => c.charCodeAt(0)) })`;
}

/**
 * Rewrites ffjavascript's `buildBn128` so that, called without plugins (as snarkjs calls it), it
 * takes the curve's WebAssembly generated at build time instead of generating its 86 KB in
 * JavaScript in every fresh prover worker, on a sign-in's critical path (decision 066; the time is in
 * docs/benchmarks.md, "Prover worker start-up").
 * The same generator at the same versions makes the same bytes; `prebuilt-bn128.test.ts` checks
 * that the rewritten module computes as the original does. The build fails if ffjavascript's text
 * changes, rather than quietly keeping the slow path.
 */
export function prebuiltBn128(): Plugin {
  let expression: string | undefined;
  return {
    name: 'zeroid:prebuilt-bn128',
    enforce: 'pre',
    transform(source, id) {
      if (!FFJAVASCRIPT.test(id)) return undefined;
      return { code: withPrebuiltBn128(source, (expression ??= prebuiltBn128Expression())), map: null };
    },
  };
}

/** ffjavascript's browser build with the generation replaced, when no plugin asks to extend the module. */
export function withPrebuiltBn128(source: string, expression: string): string {
  const start = source.indexOf(GENERATION_START);
  const end = source.indexOf(GENERATION_END, start);
  if (start < 0 || end < 0 || source.indexOf(GENERATION_START, start + 1) >= 0) {
    throw new Error('ffjavascript changed: its buildBn128 no longer reads as version 0.3.1 does; update vite-plugins/prebuilt-bn128.ts');
  }
  const generation = source.slice(start, end + GENERATION_END.length);
  const generated = `    const bn128wasm = plugins ? (() => {\n${generation}    return bn128wasm;\n    })() : ${expression};\n`;
  return source.slice(0, start) + generated + source.slice(end + GENERATION_END.length);
}

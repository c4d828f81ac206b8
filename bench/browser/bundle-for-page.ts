import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

/** Bundles one module into a single ES file a benchmark page can load, and returns its text. */
export async function bundleForPage(entry: string, outDir: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      lib: { entry, formats: ['es'], fileName: () => 'bundle.js' },
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
  });
  return readFileSync(path.join(outDir, 'bundle.js'), 'utf8');
}

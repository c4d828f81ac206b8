/**
 * The entry module of a worker thread, named without its extension, beside the module that starts
 * it. From the sources (tsx, Vitest) that is `name.ts` beside the caller; in the compiled server
 * (`npm start`, decision 018) every entry point, the server and each worker, is one bundle in
 * `dist/`, where `import.meta.url` is the bundle's, so the worker is `name.js` beside it.
 */
export function threadEntry(name: string, importerUrl: string): URL {
  return new URL(`./${name}${importerUrl.endsWith('.ts') ? '.ts' : '.js'}`, importerUrl);
}

// wasmcurves ships no types; the prebuilt module is a CommonJS file whose `code` is the base64 bytes.
declare module 'wasmcurves/build/bn128_wasm.js' {
  const bn128: { code: string };
  export default bn128;
}

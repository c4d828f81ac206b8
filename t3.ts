import { oprfQuery, jsV3Arithmetic as js, randomScalar } from './packages/protocol/src/v3/index.ts';
import { wasmV3Arithmetic } from './apps/server/src/oprf/baby-jubjub-wasm/wasm-baby-jubjub.ts';
let s0 = performance.now();
const w = wasmV3Arithmetic();
console.log('instantiate ms', (performance.now() - s0).toFixed(1));
let bad = 0;
for (let i = 0; i < 30; i++) {
  const a = randomScalar(), b = randomScalar(), c = randomScalar();
  if (js.poseidon(a, b) !== w.poseidon(a, b)) { bad++; console.log('poseidon mismatch'); }
  if (js.poseidon2Word1([a, b, c]) !== w.poseidon2Word1([a, b, c])) { bad++; console.log('poseidon2 mismatch'); }
  const q = oprfQuery('bio', 'text ' + i);
  if (js.keyTimesQueryPointY(q, a) !== w.keyTimesQueryPointY(q, a)) { bad++; console.log('kq mismatch'); }
  const x = js.baseTimes(b), y = w.baseTimes(b);
  if (x.x !== y.x || x.y !== y.y) { bad++; console.log('base mismatch'); }
  if (bad) break;
}
const t = (name: string, f: () => unknown, n = 300) => { for (let i=0;i<30;i++) f(); const s=performance.now(); for (let i=0;i<n;i++) f(); console.log(name, ((performance.now()-s)/n*1000).toFixed(0),'us'); };
const q = oprfQuery('bio', 'x'); const k = randomScalar();
t('js kq', () => js.keyTimesQueryPointY(q, k), 100);
t('wasm kq', () => w.keyTimesQueryPointY(q, k));
t('js base', () => js.baseTimes(k), 100);
t('wasm base', () => w.baseTimes(k));
t('js poseidon', () => js.poseidon(q, k));
t('wasm poseidon', () => w.poseidon(q, k));
t('js poseidon2', () => js.poseidon2Word1([q, k, 1n]));
t('wasm poseidon2', () => w.poseidon2Word1([q, k, 1n]));

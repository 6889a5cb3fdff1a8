// Regenerates ffjavascript_fr_roots.json: the BLS12-381 scalar field constants and transforms
// exactly as ffjavascript computes them (the version snarkjs 0.7.6 pins), so the host NTT can be
// checked against snarkjs's conventions. Usage (any empty directory):
//   npm install ffjavascript@0.3.1 && node ffjavascript_fr_roots.mjs > ffjavascript_fr_roots.json
// All values are canonical (not Montgomery) decimal strings.
import { buildBls12381 } from "ffjavascript";
import { readFileSync } from "node:fs";
import { join } from "node:path";

// The package's "exports" hide package.json; read it from node_modules in the working directory.
const pkg = JSON.parse(readFileSync(join("node_modules", "ffjavascript", "package.json"), "utf8"));
const curve = await buildBls12381(true);
const Fr = curve.Fr;
const str = (e) => Fr.toObject(e).toString();
const vec = (buff, n) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(str(buff.slice(i * Fr.n8, (i + 1) * Fr.n8)));
  return out;
};
const input = (n, f) => {
  const buff = new Uint8Array(n * Fr.n8);
  for (let i = 0; i < n; i++) buff.set(Fr.e(f(i)), i * Fr.n8);
  return buff;
};

const out = {
  provenance: {
    generator: "tests/unit/ntt/ffjavascript_fr_roots.mjs",
    ffjavascript: pkg.version,
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
  },
  p: Fr.p.toString(),
  s: Fr.s,
  nqr: str(Fr.nqr),
  shift: str(Fr.shift),
  w: [],
  transforms: [],
};
for (let k = 0; k <= Fr.s; k++) out.w.push(str(Fr.w[k]));

// Fr.fft / Fr.ifft (natural order in and out), and snarkjs groth16_prove's odd-point evaluation:
// ifft, batchApplyKey(first = 1, inc = w[log n + 1]) (a[i] *= inc^i), fft.
for (const logn of [1, 3, 4, 6]) {
  const n = 1 << logn;
  const f = (i) => (i * i * i + 7 * i + 3) % 1000003;
  const a = input(n, f);
  const fft = await Fr.fft(a);
  const ifft = await Fr.ifft(a);
  const coeffs = await Fr.ifft(a);
  const odd = await Fr.fft(await Fr.batchApplyKey(coeffs, Fr.e(1), Fr.w[logn + 1]));
  out.transforms.push({
    log_n: logn,
    input: vec(a, n),
    fft: vec(fft, n),
    ifft: vec(ifft, n),
    odd_points: vec(odd, n),
  });
}
console.log(JSON.stringify(out, null, 1));
await curve.terminate();

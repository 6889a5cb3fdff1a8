pragma circom 2.0.0;

// Benchmark circuit (scripts/bench_vs_snarkjs.sh): circomlib's SHA-256 of a 512-bit message
// (two compression rounds with padding, ~60k constraints, QAP domain 2^16).
include "circomlib/circuits/sha256/sha256.circom";  // -l tests/interop/node_modules

component main = Sha256(512);

pragma circom 2.0.0;

// Interop fixture: a chain of N multiplications with two public values, so the proof exercises
// the public-input (IC) terms, A/B/C coefficients other than 1, and several hundred constraints.
//   out = prod_i (x_i * k + y)  with k a public input and x, y private.
template MulChain(N) {
    signal input k;          // public
    signal input x[N];       // private
    signal input y;          // private
    signal output out;       // public
    signal t[N];
    signal acc[N + 1];
    acc[0] <== 1;
    for (var i = 0; i < N; i++) {
        t[i] <== x[i] * k + 3 * y;
        acc[i + 1] <== acc[i] * t[i];
    }
    out <== acc[N];
}

component main {public [k]} = MulChain(150);

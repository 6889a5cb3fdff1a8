#pragma once
// Level-0 bucket accumulation with the XYZZ accumulator staged in shared memory (device only;
// GpuMsmLevel0::Staged in gpu/msm/gpu_msm.hpp).
//
// Why: a G2 mixed XYZZ addition keeps the accumulator (4 Fq2 = 96 32-bit registers), the affine
// point (48) and the formula's Fq2 temporaries live at once; ptxas gives the register version
// 255 registers with spills, so it runs 8 warps per SM (gpumsm run 1). Here the accumulator's
// coordinates live in shared memory and each is loaded right before the product that reads it
// and stored right after its new value is known, and the formula is ordered so at most four Fq2
// temporaries are live (R, Q, PPP, X3). Registers then hold temporaries and one product's
// workspace only, so blocks of 128 threads fit 3 (<= 168 registers) or 4 (<= 128) per SM:
// 12 or 16 warps.
//
// Shared layout (one block of kBlock threads): word k of coordinate j (X, Y, ZZ, ZZZ = 0..3) of
// thread t at words[(j * kWords + k) * kBlock + t], kWords = sizeof(Field) / 4: consecutive
// threads read consecutive banks (no conflicts). G2: 4 x 24 words x 128 threads x 4 B = 48 KB.
// Every shared access is an asm volatile ld/st.shared, so the compiler neither merges two loads
// of a coordinate (which would keep it live in registers) nor moves them across the products
// (their carry-chain primitives are asm volatile too: gpu/ff/mont32.hpp).
#include <cstdint>
#include <cstring>

namespace prestage::gpu::staged {

template <class Field, unsigned kBlock>
struct SharedXyzz {
  static constexpr unsigned kWords = sizeof(Field) / 4;
  static_assert(sizeof(Field) % 4 == 0);
  static constexpr unsigned kSharedWords = 4 * kWords * kBlock;  // per block
  uint32_t addr;  // shared-window byte address of word 0 of X for this thread

  // Coordinate j (0 X, 1 Y, 2 ZZ, 3 ZZZ).
  __device__ __forceinline__ Field load(unsigned j) const {
    uint32_t w[kWords];
#pragma unroll
    for (unsigned k = 0; k < kWords; ++k)
      asm volatile("ld.shared.u32 %0, [%1];"
                   : "=r"(w[k])
                   : "r"(addr + (j * kWords + k) * kBlock * 4u));
    Field f;
    std::memcpy(&f, w, sizeof(Field));
    return f;
  }
  __device__ __forceinline__ void store(unsigned j, const Field& f) const {
    uint32_t w[kWords];
    std::memcpy(w, &f, sizeof(Field));
#pragma unroll
    for (unsigned k = 0; k < kWords; ++k)
      asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr + (j * kWords + k) * kBlock * 4u),
                   "r"(w[k]));
  }
  template <class Xyzz>
  __device__ __forceinline__ Xyzz get() const {
    return {load(0), load(1), load(2), load(3)};
  }
  template <class Xyzz>
  __device__ __forceinline__ void set(const Xyzz& p) const {
    store(0, p.X);
    store(1, p.Y);
    store(2, p.ZZ);
    store(3, p.ZZZ);
  }
};

// acc = 2 acc, out of line: the rare case of add_mixed, kept from adding to its registers.
template <class Xyzz, class Field, unsigned kBlock>
__device__ __noinline__ void dbl_in_place(SharedXyzz<Field, kBlock> acc) {
  acc.set(acc.template get<Xyzz>().dbl());
}

// acc += q for affine q, not the point at infinity (madd-2008-s, as ec::XYZZ::add_mixed; the
// same products on the same values, so the coordinates are bit-identical to add_mixed except
// when acc == q, where this doubles acc in XYZZ (dbl-2008-s-1) instead of q in affine
// coordinates: the same point, other coordinates).
template <class Xyzz, class Affine, class Field, unsigned kBlock>
__device__ __forceinline__ void add_mixed(const SharedXyzz<Field, kBlock>& acc, const Affine& q) {
  {
    const Field ZZ = acc.load(2);
    if (ZZ.is_zero()) {  // acc is the identity
      acc.store(0, q.x);
      acc.store(1, q.y);
      acc.store(2, Field::one());
      acc.store(3, Field::one());
      return;
    }
  }
  const Field U2 = q.x * acc.load(2);
  const Field S2 = q.y * acc.load(3);
  const Field P = U2 - acc.load(0);
  const Field R = S2 - acc.load(1);
  if (P.is_zero()) {  // acc == q (double it) or acc == -q
    if (R.is_zero())
      dbl_in_place<Xyzz>(acc);
    else
      acc.set(Xyzz::identity());
    return;
  }
  const Field PP = P.sqr();
  acc.store(2, acc.load(2) * PP);    // ZZ3 = ZZ PP
  const Field Q = acc.load(0) * PP;  // X1 PP
  const Field PPP = P * PP;          // P, PP dead
  acc.store(3, acc.load(3) * PPP);   // ZZZ3 = ZZZ PPP
  const Field X3 = R.sqr() - PPP - Q.dbl();
  acc.store(0, X3);
  const Field T = Q - X3;             // Q, X3 dead
  const Field W = acc.load(1) * PPP;  // Y1 PPP; PPP dead
  acc.store(1, R * T - W);            // Y3
}

}  // namespace prestage::gpu::staged

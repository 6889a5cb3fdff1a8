#pragma once
// Proving-key points straight from a mapped .zkey (io::MappedZkey): each coordinate is read once
// from the mapping into the affine point (the file's 48 B LE words are Fq's Montgomery limbs),
// range-checked (< q) and the point curve-checked in the same pass, eight points at a time on
// AVX-512 IFMA where the CPU has it (gpu/ff/fq_ifma.hpp: exact field arithmetic, so the verdict
// is Affine::is_on_curve's, point for point). Replaces read_zkey's G1Raw/G2Raw copies plus
// from_zkey's second pass over them.
#include <cstdint>
#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/io/zkey.hpp"
#include "gpu/msm/host_msm.hpp"

namespace prestage::groth16 {

// Section s of m (96 B points) as affine G1 points, Montgomery; all-zero points are the identity.
// Throws InputError (m.file.path, the byte offset of the coordinate or point, "section T (what)")
// for the first point (lowest index) with a coordinate >= q or off the curve. threads: 0 = all
// cores; simd = false forces the scalar checks (tests, PRESTAGE_HOST_IFMA=0).
std::vector<ec::G1Affine> g1_points(const io::MappedZkey& m, const io::ZkeyPoints& s,
                                    unsigned threads, bool simd = true);
// The same for G2 (192 B points: x.c0, x.c1, y.c0, y.c1).
std::vector<ec::G2Affine> g2_points(const io::MappedZkey& m, const io::ZkeyPoints& s,
                                    unsigned threads, bool simd = true);

// The same checks without the copy: section s stays in the mapping and is returned as raw
// points for msm::msm (valid while m lives). Same errors as g1_points / g2_points.
msm::RawPoints check_g1_points(const io::MappedZkey& m, const io::ZkeyPoints& s, unsigned threads,
                               bool simd = true);
msm::RawPoints check_g2_points(const io::MappedZkey& m, const io::ZkeyPoints& s, unsigned threads,
                               bool simd = true);

// Curve checks of 8 points (none the identity): bit l set when point l is on the curve. The
// IFMA versions need ff::ifma::cpu_has_ifma(); exposed for the unit test against is_on_curve.
uint8_t on_curve8(const ec::G1Affine* const p[8], bool simd);
uint8_t on_curve8(const ec::G2Affine* const p[8], bool simd);

}  // namespace prestage::groth16

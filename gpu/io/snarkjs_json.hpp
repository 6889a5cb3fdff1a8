#pragma once
// proof.json, public.json and verification_key.json exactly as snarkjs 0.7.6 writes them for
// Groth16 on BLS12-381 (bfj with 1-space indentation, no trailing newline): numbers as decimal
// strings, points in projective form [x, y, "1"] (affine; the point at infinity as
// ["0", "1", "0"]), G2 coordinates as [c0, c1] pairs, plus "protocol": "groth16" and
// "curve": "bls12381". Values here are plain integers (standard form, not Montgomery).
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/io/limbs.hpp"

namespace prestage::io {

struct G1Plain {
  FqLimbs x{}, y{};  // affine, standard form
  bool infinity = false;
};
struct G2Plain {
  FqLimbs x0{}, x1{}, y0{}, y1{};  // affine, standard form, x = x0 + x1 u
  bool infinity = false;
};

struct ProofJson {
  G1Plain a;
  G2Plain b;
  G1Plain c;
};

struct VkJson {
  G1Plain alpha1;
  G2Plain beta2, gamma2, delta2;
  // e(alpha1, beta2) in Fq12 = Fq6[w], Fq6 = Fq2[v], Fq2 = Fq[u]: index 6*i + 2*j + k is
  // coefficient c_k of Fq2 coefficient c_j of Fq6 coefficient c_i (snarkjs's nesting).
  std::array<FqLimbs, 12> alphabeta12{};
  std::vector<G1Plain> ic;  // nPublic + 1
};

std::string proof_to_json(const ProofJson& p);
std::string public_to_json(const std::vector<FrLimbs>& signals);
std::string vk_to_json(const VkJson& vk);

// Readers: parse and validate (protocol "groth16", curve "bls12381", decimal strings below q or
// r, z coordinate "1" or the point at infinity, nPublic == IC count - 1). Throw
// prestage::InputError naming the file and the offending key (e.g. "pi_b[1][0]").
ProofJson read_proof_json(const std::string& path);
std::vector<FrLimbs> read_public_json(const std::string& path);
VkJson read_vk_json(const std::string& path);
// The same on text in memory (`name` is used in errors; fuzzing).
ProofJson parse_proof_json(const std::string& name, std::string_view text);
std::vector<FrLimbs> parse_public_json(const std::string& name, std::string_view text);
VkJson parse_vk_json(const std::string& name, std::string_view text);

// Writes `content` to `path` atomically: a temporary file beside it, flushed, then renamed over
// `path`. Throws InputError (naming path) when the directory is not writable.
void write_file_atomic(const std::string& path, std::string_view content);

}  // namespace prestage::io

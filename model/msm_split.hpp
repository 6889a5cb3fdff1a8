// Splitting an MSM into pieces that fit a fixed workspace: how both drivers run a resident-points
// MSM whose workspace is smaller than the whole MSM needs (gpu/staging/runtime.cpp run_msm with
// msm::device_workspace_bytes; the simulator with the calibration's msm_workspace curves).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace prestage::model {

// Most pieces a resident-points MSM is split into to fit its workspace: 2^23 points a piece at
// 2^27, the smallest size the MSM curves are measured at below it being 2^20; beyond that the
// workspace is too small for the pipeline and the MSM's out-of-memory is the result. Only 2 pieces
// have been run (2^27, experiment 05's grid row 28).
inline constexpr std::size_t kMaxResidentMsmPieces = 16;

// How an MSM of `count` points runs in a workspace: `pieces` MSMs of `piece` points (the last one
// shorter), whose largest workspace is `need` bytes. pieces == 0: nothing fits.
struct MsmSplit {
  std::size_t pieces = 0;
  std::size_t piece = 0;   // points per piece (the last piece has count - (pieces - 1) x piece)
  std::uint64_t need = 0;  // B: the largest piece's workspace (when nothing fits: at max_pieces)
};

// The fewest pieces, from a split into a power of two up to `max_pieces`, whose every piece's
// workspace need(points) fits `workspace` bytes. need() may be non-monotone in the point count (the
// device MSM's window size falls in steps as n grows), so every distinct piece size is checked, the
// shorter last one too. count == 0: one empty piece.
template <class Need>
MsmSplit split_to_fit(std::size_t count, std::uint64_t workspace, std::size_t max_pieces,
                      Need need) {
  MsmSplit s;
  for (std::size_t split = 1; split <= std::max<std::size_t>(max_pieces, 1); split *= 2) {
    const std::size_t piece = count == 0 ? 0 : (count + split - 1) / split;
    std::uint64_t largest = need(piece);
    if (piece > 0 && count % piece != 0)
      largest = std::max<std::uint64_t>(largest, need(count % piece));
    // The pieces the loop over `piece` points makes (at most `split`: 9 points in 4 make 3 of 3).
    s = MsmSplit{piece == 0 ? 1 : (count + piece - 1) / piece, piece, largest};
    if (largest <= workspace) return s;
  }
  s.pieces = 0;  // need: the largest piece's workspace at max_pieces
  return s;
}

}  // namespace prestage::model

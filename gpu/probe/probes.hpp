#pragma once
// The probe's questions (docs/story.md), one function each. Every function runs on the current
// device, leaves the device as it found it (all its allocations freed, default pool trimmed,
// release threshold back to 0, streams idle) and returns a JSON object with
//   "summary": the numbers and verdicts the calibration file is built from (calibration.cpp),
//   raw samples beside it (every timing, address, pool/meminfo reading), and
//   "method": a one-line description of what was done (sizes, repetitions, statistic).
// Timings: device intervals with CUDA events, host calls with the steady clock, in seconds;
// sizes in bytes. Statistic: median over repetitions unless a key says otherwise.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace prestage::probe {

using Json = nlohmann::ordered_json;

struct ProbeContext {
  int device = 0;
  cudaMemPool_t pool = nullptr;  // the device's default memory pool
  bool quick = false;            // small sizes and few repetitions (smoke run)
  std::size_t total_memory = 0;  // cudaMemGetInfo total, B
};

// --- driver calls across threads (driver_probe.cpp) ---
// Whether a short call on one thread (kernel launch + stream sync; cudaMalloc + cudaFree) waits
// behind another thread's cudaHostRegister / cudaHostUnregister of 4 and 12 GiB; pinning cost
// alone and from two threads at once.
Json probe_driver_serialisation(ProbeContext& c);
// Which of one thread's calls wait while another thread runs cudaHostRegister /
// cudaHostUnregister of 12 GiB: a stream sync already waiting on a kernel that ends inside it,
// kernel launches, pool allocations, pageable and pinned H2D copies; whether kernels slow down.
Json probe_driver_waits(ProbeContext& c);
// Whether another thread's cudaMalloc gets the memory of a cudaFree still under way (device
// idle): success and its return against the free's.
Json probe_free_release(ProbeContext& c);
// The hand-off when a pinning call returns while another thread's cudaHostRegister or cudaMalloc
// waits, the holder making the staging runtime's stager calls: how many go before the waiter.
Json probe_handoff_runtime(ProbeContext& c);
// Whether a cudaFree that waits for the device holds the driver meanwhile (another thread's
// cudaMemGetInfo and launches wait through it), and whether its thread's next call goes first.
Json probe_free_holds_driver(ProbeContext& c);
// Pinned H2D copies into two devices alone and at once: does the host side cap their sum?
// Skipped (with the reason) where the machine has one device.
Json probe_multi_gpu_h2d(ProbeContext& c);

// --- key points streamed from host memory (msm_stream_probe.cpp) ---
// The G1 MSM with its points streamed from pinned host memory (msm::on_device_streamed) and
// resident, uniform and PoRep-shaped scalars, in the default pipeline's MSM workspace (40.5 B a
// point): time, chunk and the H2D bytes it moves, at 2^24, 2^26, 2^27.
Json probe_msm_streaming(ProbeContext& c);
// The H steps at 2^27 (an input's chain, the coset inverse NTT) alone and beside another thread's
// 12 GiB cudaHostRegister: do they stall while the driver is held, as the MSMs do?
Json probe_h_during_registration(ProbeContext& c);

// --- the MSM's workspace (msm_workspace_probe.cpp) ---
// B of device workspace one MSM call takes, G1 and G2, 2^16-2^27, with the default options and
// with the least-memory ones (XYZZ, scalars read per window): a query, nothing is timed.
Json probe_msm_workspace(ProbeContext& c);

// --- device memory (memory_probe.cpp) ---
// Default-pool attributes as found (release threshold, reuse policies) before any change.
Json probe_pool_defaults(ProbeContext& c);
// When is a block freed with cudaFreeAsync reused: same stream; other stream with the free still
// pending, after it completed (no host sync), after an event dependency; internal deps off.
Json probe_pool_reuse(ProbeContext& c);
// Which host calls release a pool's freed memory to the driver (threshold 0), what a threshold
// between keeps, and that UINT64_MAX keeps everything (pool reserved + cudaMemGetInfo).
Json probe_pool_release_calls(ProbeContext& c);
// Fill the card through the pool, cudaFreeAsync everything, then cudaMalloc half the card:
// with frees pending, completed but unsynchronised, after a stream sync, and with an idle pool
// (threshold UINT64_MAX), then after trimming. Also what cudaMemGetInfo reports meanwhile.
Json probe_pool_vs_cudamalloc(ProbeContext& c);
// cudaMallocAsync (cold: maps memory) / cudaFreeAsync / warm reuse / release at a stream sync /
// cudaMemPoolTrimTo cost by size, fitted fixed + per GiB.
Json probe_pool_costs(ProbeContext& c);
// cudaMemPoolTrimTo(pool, 0) while a cudaFreeAsync is still pending behind a kernel.
Json probe_trim_pending(ProbeContext& c);
// Reservation growth of the pool and cudaMemGetInfo drop of cudaMalloc by request size.
Json probe_granularity(ProbeContext& c);
// cudaMalloc / cudaFree host latency by size, fitted fixed + per GiB.
Json probe_sync_allocator_costs(ProbeContext& c);
// Largest single cudaMalloc and cudaMallocAsync (2 MiB resolution).
Json probe_largest_allocation(ProbeContext& c);
// Whether out-of-memory (impossible size; really full card; both allocators) leaves the context
// usable: allocate, launch, synchronise afterwards.
Json probe_oom_sticky(ProbeContext& c);
// Which calls wait for a long kernel running on another stream (device-wide synchronisation).
Json probe_device_sync_calls(ProbeContext& c);
// Fixed costs of stream/event/device synchronisation on idle streams and small queries.
Json probe_sync_costs(ProbeContext& c);

// --- PCIe and host memory (pcie_probe.cpp) ---
// Bandwidth and latency by size (4 KiB .. 4 GiB, powers of 4), pinned and pageable, both
// directions, after a round-trip data check; full duplex; two same-direction copies at once;
// whether pageable copies block the host thread. Allocates its own host (<= 2 x 4 GiB) and
// device buffers and frees them before returning.
Json probe_pcie(ProbeContext& c);
// cudaHostRegister/Unregister of a touched malloc'd buffer and cudaMallocHost/FreeHost by size.
Json probe_host_memory(ProbeContext& c);

}  // namespace prestage::probe

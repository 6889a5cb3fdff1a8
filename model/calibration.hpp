#pragma once
// Calibration of one GPU and its host link (schema prestage-calibration/1, see
// data/calibration/SCHEMA.md). Every number in the file is a measured quantity with value, unit
// and source; the loader converts to SI base units (bytes, seconds, bytes/s) and rejects unknown or
// missing keys with an InputError naming file, line and key path. Nothing hardware-specific lives
// in code: the simulator reads all device semantics (allocator flags, reuse rules, which calls
// synchronise the device) from here.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/kernel_fit.hpp"

namespace prestage::yaml {
class In;
}

namespace prestage::model {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// A cost of the form fixed + per_gib * (bytes / GiB), in seconds.
struct CostFn {
  double fixed_s = 0;    // s
  double per_gib_s = 0;  // s per GiB
  double at(double bytes) const { return fixed_s + per_gib_s * (bytes / kGiB); }
};

// A curve y(size) from measured points, interpolated piecewise-linearly in log2(size).
// Outside the measured range: `clamp` holds the end value (bandwidths saturate); otherwise the
// end value is scaled linearly with size (kernel times grow with n), i.e. y(x) = y_end * x/x_end.
// A kernel curve with a fitted model (`has_model`) gives the measured value at a measured size
// and the model's value at every other size (inside or outside the measured range).
struct Curve {
  std::vector<std::pair<double, double>> pts;  // (log2 size, value), ascending in log2 size
  bool clamp = true;
  bool has_model = false;
  KernelModel model;  // s by domain size n, when has_model
  double at(double size) const;
  bool empty() const { return pts.empty(); }
};

enum class LinkSharing { shared, queued };  // concurrent same-direction copies: max-min fair / FIFO
enum class SyncKind { none, stream, event, device };
// When pool memory freed on one stream may serve an allocation (probe vocabulary in brackets):
// immediate [immediate, immediate_with_inserted_dependency: even while the free is still queued
// behind earlier work on its stream; the inserted dependency's wait is not modelled],
// after_free_completes (once the free has executed on the GPU, no host sync needed), after_event,
// after_sync [never_without_sync] (after a host sync that covers the free), never.
enum class ReuseRule { immediate, after_free_completes, after_event, after_sync, never };
// cudaMemPoolTrimTo while frees are pending (probe section trim_pending):
//  skips_pending: returns at once, releases only idle memory a host sync has already observed;
//  waits_then_releases: waits for the pending frees on the GPU, then releases them too;
//  waits_without_release: waits for them, releases only observed memory;
//  releases_immediately: releases every freed byte at once, pending or not.
enum class TrimPending {
  skips_pending,
  waits_then_releases,
  waits_without_release,
  releases_immediately
};

// One direction of the host link.
struct LinkDirection {
  double pinned_latency_s = 0;             // fixed cost of one cudaMemcpyAsync from pinned memory
  Curve pinned_bandwidth;                  // B/s by transfer size (bytes)
  double pageable_latency_s = 0;           // ... from pageable memory
  Curve pageable_bandwidth;                // B/s by transfer size
  bool pageable_blocks_host = true;        // a pageable cudaMemcpyAsync returns only when done
  bool pageable_waits_for_stream = false;  // ... and only after earlier work on its stream
  LinkSharing sharing = LinkSharing::shared;  // two copies of this direction on two streams
  double aggregate = 0;                       // B/s, both copies of this direction together
};

struct Calibration {
  std::string file;  // where it was loaded from (manifests name it)
  // device
  std::string device_name, driver, measured_on, probe_commit;
  double total_memory = 0;           // B, cudaMemGetInfo total
  double free_at_context_start = 0;  // B, cudaMemGetInfo free right after context creation
  // pcie
  LinkDirection h2d, d2h;
  // Per direction in h2d/d2h: sharing and aggregate (pcie.concurrency.same_direction[_d2h]...).
  double bidirectional_aggregate = 0;  // B/s, h2d + d2h together
  // host memory
  CostFn host_register, host_unregister, malloc_host, free_host;
  // cudaHostRegister / cudaHostUnregister hold the driver for their whole duration: another
  // thread's kernel launch + stream sync, cudaMalloc or cudaFree, and a second registration,
  // wait until they return (probe driver_serialisation). Absent in older calibrations: false.
  bool pinning_serialises_driver = false;
  // What that hold does to work already under way on another thread (probe driver_waits):
  // a host-paced step (kernel launches each followed by a stream sync, as the streamed MSM's
  // chunk loop) makes no progress while the driver is held; a pageable copy, staged through the
  // driver's bounce buffers, neither. Absent: false (only the calls' starts wait).
  bool pinning_stalls_paced_steps = false;
  bool pinning_stalls_pageable_copies = false;
  // The same hold delays the start of another thread's cudaMemcpyAsync (pinned too) and
  // cudaMallocAsync until it ends (probe driver_waits: copy_pinned_issued_inside,
  // pool_alloc_waits). Absent: false.
  bool pinning_delays_copy_issue = false;
  bool pinning_delays_pool_alloc = false;
  // ... and another thread's cudaMemGetInfo (probe driver_waits.meminfo_no_sync): the runtime
  // reads it for a policy's free memory and for each out-of-memory record. Absent: false.
  bool pinning_delays_meminfo = false;
  // An MSM step makes no progress while another thread's pinning call holds the driver, its
  // points resident too (probe msm_streaming.during_registration: an MSM started beside a 12 GiB
  // cudaHostRegister took about the registration's time longer than alone). Absent: false (only
  // streamed MSMs stall, under pinning_stalls_paced_steps).
  bool pinning_stalls_msm = false;
  // The same for the H steps (kernels h_input, coset_intt; probe h_during_registration). Absent:
  // false.
  bool pinning_stalls_h = false;
  // When a pinning call returns, its own thread's next call goes ahead of a call that waited for
  // it: the waiter resumes this long after the release (probe driver_waits.*.handoff_malloc, the
  // median of "B returns after A's next call returned" when the holder went first in most
  // repetitions). Absent or 0: the waiter resumes at the release instant (FIFO).
  double pinning_handoff_s = 0;
  // cudaHostUnregister, which waits for the device, holds the driver while it waits (probe
  // driver_waits.launch_while_device_busy: another thread's launches waited from its start to its
  // return, about the device's remaining work plus the unregistration). Absent: false (the
  // driver is held for the unregistration's own work only).
  bool unregister_holds_driver_while_waiting = false;
  // synchronous allocator (cudaMalloc / cudaFree)
  double sync_granularity = 0;  // B
  CostFn sync_malloc, sync_free;
  bool free_synchronizes_device = true;
  // cudaFree's memory is available to another thread's cudaMalloc once the call has started its
  // own work, before the call returns (probe free_release: B's cudaMalloc, which fits only in A's
  // memory, succeeded before A's cudaFree returned). Absent: false (released when the call ends).
  bool free_releases_before_return = false;
  // cudaFree, where it waits for the device, takes the driver first and holds it while it waits
  // (probe free_holds_driver: another thread's back-to-back cudaMemGetInfo waited through most
  // of a cudaFree that waited behind a kernel, beyond what the kernel alone cost it). Absent:
  // false (the free waits without holding the driver).
  bool free_holds_driver_while_waiting = false;
  // Another thread's kernel launches wait from the start of a cudaFree that waits for the device
  // to its return (probe free_holds_driver, launch row: the longest launch beside the free took
  // about the free's time). Absent: false.
  bool free_blocks_launches = false;
  double largest_allocation = 0;  // B
  // stream-ordered pool (cudaMallocAsync / cudaFreeAsync)
  double pool_granularity = 0;  // B, reservation growth step
  CostFn pool_malloc, pool_free;
  double release_threshold_default = 0;  // B
  ReuseRule reuse_same_stream = ReuseRule::immediate;
  ReuseRule reuse_other_stream = ReuseRule::after_sync;
  // Calls after which idle pool memory above the release threshold goes back to the device, in
  // the probe's vocabulary: nothing (released as soon as the free completes), stream_query,
  // event_query, event_sync, stream_sync, stream_sync_other_stream, device_sync, mem_get_info,
  // cuda_malloc, malloc_async_other_stream; and the model's own words for the implicit
  // device-wide waits of cuda_free, host_unregister, free_host (not probed: absent = they wait
  // for the device but do not observe or release pool frees).
  std::set<std::string> released_by;
  bool releases_on(const char* call) const { return released_by.count(call) != 0; }
  bool release_keeps_threshold = true;         // a release leaves the threshold's bytes reserved
  bool cudamalloc_reclaims_idle_pool = false;  // cudaMalloc takes idle pool bytes after a sync
  bool cudamalloc_reclaims_completed_frees_before_sync = false;  // ... before any sync
  bool cudamalloc_reclaims_pending_frees = false;  // ... even frees still queued on the GPU
  double pool_minimum_reservation = 0;             // B, first reservation of an empty pool
  double pool_largest_allocation = 1e300;          // B
  bool has_pool_malloc_warm = false;
  CostFn pool_malloc_warm;      // cudaMallocAsync served from idle pool memory
  CostFn pool_release_at_sync;  // extra cost of a sync that releases pool memory (per GiB released)
  bool meminfo_counts_pool_reserved = true;  // cudaMemGetInfo: pool-reserved memory is not free
  CostFn pool_trim;
  TrimPending trim_with_pending_frees = TrimPending::skips_pending;
  bool oom_sticky = false;
  // synchronisation
  bool device_sync_waits_all = true;
  CostFn stream_synchronize, event_record_sync, device_synchronize;
  std::set<std::string> calls_that_synchronize_device;  // "cudaFree", "cudaMemPoolTrimTo", ...
  // kernel time curves (s) by domain size n, keyed by kernel name ("ntt", "msm_g1", ...)
  std::map<std::string, Curve> kernels;
  // B of device workspace one MSM call of n points takes with its least-memory options (XYZZ, the
  // scalars read per window group; probe msm_workspace), by curve ("g1", "g2"). The simulator
  // tests a resident-points MSM against its pipeline's workspace with it and splits the MSM into
  // pieces as the GPU runtime does (model/msm_split.hpp). Absent in older calibrations: not
  // tested (one MSM of the step's curve, whatever its workspace).
  std::map<std::string, Curve> msm_workspace;

  bool synchronizes_device(const char* call) const {
    return calls_that_synchronize_device.count(call) != 0;
  }
  double pcie_bandwidth(bool h2d_dir, bool pinned, double bytes) const;
  double pcie_latency(bool h2d_dir, bool pinned) const;
};

// Loads and validates a calibration file (InputError on any problem).
Calibration load_calibration(const std::string& path);
// Same from an already parsed document; `file` names it in messages.
Calibration parse_calibration(const yaml::In& root);

const char* to_string(SyncKind k);
const char* to_string(ReuseRule r);
const char* to_string(TrimPending t);

}  // namespace prestage::model

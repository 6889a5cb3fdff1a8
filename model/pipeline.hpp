#pragma once
// The shape of a proof partition's GPU pipeline, as data (schema prestage-pipeline/1; the default,
// supraseal-c2-like, is data/pipelines/supraseal_c2.yaml). It lists the host input vectors, the
// device buffers with their size expressions and allocators, the stage groups that pre-staging
// may move out of the GPU lock (a buffer plus the uploads into it), and the ordered steps one GPU
// worker runs per partition: lock/unlock, alloc/free, upload/download, GPU kernels and CPU work.
// Durations come from calibration kernel curves at the step's size, or are given in seconds.
// A kernel step is a launch the host waits for (cudaStreamSynchronize of the worker's compute
// stream, as sppark's NTT and MSM calls do); a free of a pool buffer is a cudaFreeAsync on the
// compute stream, observed by the next host sync that covers it.
#include <string>
#include <vector>

#include "model/expr.hpp"

namespace prestage::yaml {
class In;
}

namespace prestage::model {

enum class Allocator { sync, pool };  // cudaMalloc/cudaFree vs cudaMallocAsync/cudaFreeAsync

// Names usable in size expressions: n (domain size), elem (bytes per field element),
// lot_of_memory (1 when 3*n*elem fits under VRAM - 1 GiB, else 0), partitions.
const std::vector<std::string>& size_names();

struct InputSpec {  // a host vector written by synthesis, e.g. a: n x 32 B
  std::string name;
  SizeExpr bytes;
};

struct BufferSpec {  // a device buffer
  std::string name;
  SizeExpr bytes;
  Allocator allocator = Allocator::sync;
};

struct StageGroup {  // what pre-staging moves out of the lock: allocate `buffer`, upload `uploads`
  std::string name;
  int buffer = -1;
  std::vector<int> uploads;  // input indices, uploaded in order on the worker's copy stream
};

// pin/unpin: cudaHostRegister/Unregister of the partition's inputs when the policy pins per
// partition. Without them the pinning happens before staging and the unpinning at the end.
enum class StepOp { lock, unlock, alloc, free, upload, download, kernel, cpu, pin, unpin, sync };
// A `sync` step's scope: the worker's streams (cudaStreamSynchronize), an event recorded on them
// (cudaEventSynchronize), or the whole device (cudaDeviceSynchronize).
enum class SyncScope { stream, event, device };

struct Step {
  StepOp op = StepOp::kernel;
  std::string name;    // event name in traces; per-phase times are keyed by it
  int buffer = -1;     // alloc/free/upload target
  int input = -1;      // upload source
  std::string kernel;  // kernel/cpu: calibration curve name (empty: `seconds` given)
  SizeExpr size;       // kernel/cpu: problem size for the curve; download: bytes
  double seconds = -1;
  int count = 1;        // kernel/cpu: repetitions
  bool detach = false;  // cpu: runs beside the worker (the proof waits for it, the worker does not)
  SyncScope scope = SyncScope::stream;  // sync: what the host waits for
  int line = 0;                         // line in the pipeline file (for messages)
};

struct Pipeline {
  std::string file, name;
  std::vector<InputSpec> inputs;
  std::vector<BufferSpec> buffers;
  // Device memory the prover holds for the whole run, allocated before t = 0 (e.g. the NTT's
  // twiddle tables): it comes out of the card's usable memory on both sides. Optional.
  std::vector<InputSpec> resident;
  std::vector<StageGroup> groups;  // in tier order: a placement stages a prefix of these
  std::vector<Step> steps;
  bool has_pin_step = false;
  int buffer_index(const std::string& n) const;
  int input_index(const std::string& n) const;
};

Pipeline load_pipeline(const std::string& path);
Pipeline parse_pipeline(const yaml::In& root);

}  // namespace prestage::model

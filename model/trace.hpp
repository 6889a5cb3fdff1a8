#pragma once
// One event schema for simulated and measured runs, and its writers.
//
// events.jsonl: one JSON object per line, in the order events were recorded, fields
//   t_start, t_end (s since run start), track ("gpu0/w1/host", "gpu0/compute", "gpu0/h2d", ...),
//   name (pipeline step name or call: "upload_a", "sync_device", ...), kind (see EventKind),
//   gpu, worker (-1: none), partition (-1: none), bytes (0: none);
//   kind "memory" lines are counter samples with used, reserved, free (B) instead of bytes.
// trace.json: Chrome trace format (Perfetto opens it): one process per GPU, one thread per track,
//   "X" slices in microseconds, "C" counters for device memory used / reserved / free.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace prestage::model {

enum class EventKind : std::uint8_t {
  compute,
  copy,
  alloc,
  free,
  sync,
  lock_wait,
  lock_held,
  pin,
  unpin,
  trim,
  policy,
  cpu,
  oom,
  partition,
  proof,
  memory
};
const char* to_string(EventKind k);

struct TraceEvent {               // 48 B POD; strings live in the Trace's tables
  double t_start = 0, t_end = 0;  // s
  std::uint64_t bytes = 0;        // B moved / allocated (memory samples: used)
  std::int64_t partition = -1;
  std::uint32_t track = 0, name = 0;
  std::int16_t gpu = -1, worker = -1;
  EventKind kind = EventKind::compute;
};

struct MemorySample {  // device memory counters of one GPU at time t (B)
  double t = 0;
  int gpu = 0;
  std::uint64_t used = 0, reserved = 0, free = 0;
};

class Trace {
 public:
  std::uint32_t track_id(const std::string& name);  // interns
  std::uint32_t name_id(const std::string& name);
  const std::string& track_name(std::uint32_t id) const { return tracks_[id]; }
  const std::string& event_name(std::uint32_t id) const { return names_[id]; }
  void add(const TraceEvent& e) { events_.push_back(e); }
  void add(const MemorySample& m) { memory_.push_back(m); }
  const std::vector<TraceEvent>& events() const { return events_; }
  const std::vector<MemorySample>& memory() const { return memory_; }

  // Writers (deterministic: same trace -> same bytes). Events and memory samples are merged in
  // time order, ties keeping recording order.
  void write_jsonl(std::ostream& out) const;
  void write_chrome(std::ostream& out) const;

 private:
  std::vector<std::string> tracks_, names_;
  std::vector<TraceEvent> events_;
  std::vector<MemorySample> memory_;
};

}  // namespace prestage::model

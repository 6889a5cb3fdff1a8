#pragma once
// Reading event logs back and comparing two of them (a simulated run and a measured one, or two
// simulated variants). The log schema is model/trace.hpp's events.jsonl.
#include <map>
#include <string>

#include "model/trace.hpp"

namespace prestage::model {

// Reads events.jsonl (InputError naming file, line and field on a malformed line).
Trace read_jsonl(const std::string& path);

struct NameStats {
  std::int64_t count = 0;
  double total_s = 0;  // summed durations
};

struct TraceComparison {
  double makespan_a = 0, makespan_b = 0;  // s: last t_end of each
  double makespan_rel_error = 0;          // |a - b| / b (b is the reference)
  std::int64_t oom_a = 0, oom_b = 0;      // events of kind oom
  std::map<std::string, std::pair<NameStats, NameStats>> by_name;  // per event name, a and b
  std::int64_t mirrors_a = 0, mirrors_b = 0;  // host-side views of device work left out (below)
};

// True for a device track ("gpu0/compute", "gpu0/h2d", "gpu0/d2h": one '/' under a GPU), as
// opposed to a worker's host-thread track ("gpu0/w1/host") or a host track ("host/cpu").
bool is_device_track(const std::string& track);

// Compares trace `a` against reference `b` (e.g. model against measurement). Memory samples are
// ignored; partition and proof summary events are included by name.
// Each kernel and copy counts once: a log records a kernel on the GPU's compute track and again
// on the issuing worker's host track (the host's view: SM wait, kernel, stream sync), an unstaged
// upload on the link's track and on the host track. A compute or copy event on a non-device track
// that has a device-track event of the same name, kind, GPU, worker and partition is such a
// mirror and is left out (counted in mirrors_a/b); the device event's duration is the one summed.
// So per name the count equals the summary's phase count (summary.json "phases").
TraceComparison compare(const Trace& a, const Trace& b);

}  // namespace prestage::model

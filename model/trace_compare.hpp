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
};

// Compares trace `a` against reference `b` (e.g. model against measurement). Memory samples are
// ignored; partition and proof summary events are included by name.
TraceComparison compare(const Trace& a, const Trace& b);

}  // namespace prestage::model

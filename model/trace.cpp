#include "model/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

namespace prestage::model {

const char* to_string(EventKind k) {
  switch (k) {
    case EventKind::compute:
      return "compute";
    case EventKind::copy:
      return "copy";
    case EventKind::alloc:
      return "alloc";
    case EventKind::free:
      return "free";
    case EventKind::sync:
      return "sync";
    case EventKind::lock_wait:
      return "lock_wait";
    case EventKind::lock_held:
      return "lock_held";
    case EventKind::pin:
      return "pin";
    case EventKind::unpin:
      return "unpin";
    case EventKind::trim:
      return "trim";
    case EventKind::policy:
      return "policy";
    case EventKind::cpu:
      return "cpu";
    case EventKind::oom:
      return "oom";
    case EventKind::partition:
      return "partition";
    case EventKind::proof:
      return "proof";
    case EventKind::memory:
      return "memory";
  }
  return "?";
}

static std::uint32_t intern(std::vector<std::string>& v, const std::string& s) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == s) return static_cast<std::uint32_t>(i);
  v.push_back(s);
  return static_cast<std::uint32_t>(v.size() - 1);
}
std::uint32_t Trace::track_id(const std::string& n) {
  return intern(tracks_, n);
}
std::uint32_t Trace::name_id(const std::string& n) {
  return intern(names_, n);
}

namespace {
// Shortest round-trip decimal of a double (fmt's default): deterministic across runs.
std::string num(double v) {
  return fmt::format("{}", v);
}
std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump();
}

// Indices of events then memory samples merged by start time (stable).
struct Item {
  double t;
  bool mem;
  std::size_t i;
};
std::vector<Item> merged(const std::vector<TraceEvent>& ev, const std::vector<MemorySample>& mem) {
  std::vector<Item> items;
  items.reserve(ev.size() + mem.size());
  for (std::size_t i = 0; i < ev.size(); ++i) items.push_back({ev[i].t_start, false, i});
  for (std::size_t i = 0; i < mem.size(); ++i) items.push_back({mem[i].t, true, i});
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.t < b.t; });
  return items;
}
}  // namespace

void Trace::write_jsonl(std::ostream& out) const {
  for (const Item& it : merged(events_, memory_)) {
    if (it.mem) {
      const MemorySample& m = memory_[it.i];
      out << "{\"t_start\":" << num(m.t) << ",\"t_end\":" << num(m.t) << ",\"track\":\"gpu" << m.gpu
          << "/memory\",\"name\":\"device_memory\",\"kind\":\"memory\",\"gpu\":" << m.gpu
          << ",\"worker\":-1,\"partition\":-1,\"used\":" << m.used << ",\"reserved\":" << m.reserved
          << ",\"free\":" << m.free << "}\n";
      continue;
    }
    const TraceEvent& e = events_[it.i];
    out << "{\"t_start\":" << num(e.t_start) << ",\"t_end\":" << num(e.t_end)
        << ",\"track\":" << quoted(tracks_[e.track]) << ",\"name\":" << quoted(names_[e.name])
        << ",\"kind\":\"" << to_string(e.kind) << "\",\"gpu\":" << e.gpu
        << ",\"worker\":" << e.worker << ",\"partition\":" << e.partition
        << ",\"bytes\":" << e.bytes << "}\n";
  }
}

void Trace::write_chrome(std::ostream& out) const {
  // pid = gpu (+1 so host-only tracks of gpu -1 get pid 0), tid = track id + 1.
  out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&] {
    if (!first) out << ",\n";
    first = false;
  };
  std::map<std::pair<int, std::uint32_t>, bool> named;
  std::map<int, bool> pnamed;
  for (const TraceEvent& e : events_) {
    int pid = e.gpu + 1;
    if (!pnamed[pid]) {
      pnamed[pid] = true;
      sep();
      out << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << pid
          << ",\"args\":{\"name\":" << quoted(e.gpu >= 0 ? fmt::format("gpu{}", e.gpu) : "host")
          << "}}";
    }
    if (!named[{pid, e.track}]) {
      named[{pid, e.track}] = true;
      sep();
      out << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid << ",\"tid\":" << e.track + 1
          << ",\"args\":{\"name\":" << quoted(tracks_[e.track]) << "}}";
    }
  }
  for (const Item& it : merged(events_, memory_)) {
    sep();
    if (it.mem) {
      const MemorySample& m = memory_[it.i];
      out << "{\"ph\":\"C\",\"name\":\"device_memory_GiB\",\"pid\":" << m.gpu + 1
          << ",\"ts\":" << num(m.t * 1e6) << ",\"args\":{\"used\":" << num(m.used / 1073741824.0)
          << ",\"reserved\":" << num(m.reserved / 1073741824.0)
          << ",\"free\":" << num(m.free / 1073741824.0) << "}}";
      continue;
    }
    const TraceEvent& e = events_[it.i];
    out << "{\"ph\":\"X\",\"name\":" << quoted(names_[e.name]) << ",\"cat\":\"" << to_string(e.kind)
        << "\",\"pid\":" << e.gpu + 1 << ",\"tid\":" << e.track + 1
        << ",\"ts\":" << num(e.t_start * 1e6) << ",\"dur\":" << num((e.t_end - e.t_start) * 1e6)
        << ",\"args\":{\"partition\":" << e.partition << ",\"worker\":" << e.worker
        << ",\"bytes\":" << e.bytes << "}}";
  }
  out << "\n]}\n";
}

}  // namespace prestage::model

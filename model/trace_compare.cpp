#include "model/trace_compare.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "model/errors.hpp"

namespace prestage::model {

static EventKind kind_of(const std::string& s, bool& ok) {
  static const EventKind all[] = {
      EventKind::compute, EventKind::copy,      EventKind::alloc,     EventKind::free,
      EventKind::sync,    EventKind::lock_wait, EventKind::lock_held, EventKind::pin,
      EventKind::unpin,   EventKind::trim,      EventKind::policy,    EventKind::cpu,
      EventKind::oom,     EventKind::partition, EventKind::proof,     EventKind::memory};
  for (EventKind k : all)
    if (s == to_string(k)) {
      ok = true;
      return k;
    }
  ok = false;
  return EventKind::compute;
}

Trace read_jsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open event log");
  Trace t;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      throw InputError(path, n, "", std::string("not JSON: ") + e.what());
    }
    auto need = [&](const char* key) -> const nlohmann::json& {
      if (!j.contains(key)) throw InputError(path, n, key, "missing field");
      return j.at(key);
    };
    auto num = [&](const char* key) {
      const auto& v = need(key);
      if (!v.is_number()) throw InputError(path, n, key, "expected a number");
      return v.get<double>();
    };
    auto str = [&](const char* key) {
      const auto& v = need(key);
      if (!v.is_string()) throw InputError(path, n, key, "expected a string");
      return v.get<std::string>();
    };
    bool ok = false;
    EventKind k = kind_of(str("kind"), ok);
    if (!ok) throw InputError(path, n, "kind", "unknown event kind '" + str("kind") + "'");
    if (k == EventKind::memory) {
      MemorySample m;
      m.t = num("t_start");
      m.gpu = static_cast<int>(num("gpu"));
      m.used = static_cast<std::uint64_t>(num("used"));
      m.reserved = static_cast<std::uint64_t>(num("reserved"));
      m.free = static_cast<std::uint64_t>(num("free"));
      t.add(m);
      continue;
    }
    TraceEvent e;
    e.t_start = num("t_start");
    e.t_end = num("t_end");
    if (e.t_end < e.t_start) throw InputError(path, n, "t_end", "ends before it starts");
    e.track = t.track_id(str("track"));
    e.name = t.name_id(str("name"));
    e.kind = k;
    e.gpu = static_cast<std::int16_t>(num("gpu"));
    e.worker = static_cast<std::int16_t>(num("worker"));
    e.partition = static_cast<std::int64_t>(num("partition"));
    e.bytes = static_cast<std::uint64_t>(num("bytes"));
    t.add(e);
  }
  return t;
}

bool is_device_track(const std::string& track) {
  auto slash = track.find('/');
  return track.rfind("gpu", 0) == 0 && slash != std::string::npos &&
         track.find('/', slash + 1) == std::string::npos;
}

namespace {
// (name, kind, gpu, worker, partition) of an event, for matching mirrors with device events.
using EventKey = std::tuple<std::string, EventKind, int, int, std::int64_t>;

bool mirrorable(EventKind k) {
  return k == EventKind::compute || k == EventKind::copy;
}

void scan(const Trace& t, double& makespan, std::int64_t& ooms, std::int64_t& mirrors, bool first,
          std::map<std::string, std::pair<NameStats, NameStats>>& by) {
  auto on_device = [&](const TraceEvent& e) { return is_device_track(t.track_name(e.track)); };
  auto key = [&](const TraceEvent& e) {
    return EventKey{t.event_name(e.name), e.kind, e.gpu, e.worker, e.partition};
  };
  std::map<EventKey, std::int64_t> device_events;
  for (const auto& e : t.events())
    if (mirrorable(e.kind) && on_device(e)) ++device_events[key(e)];
  for (const auto& e : t.events()) {
    makespan = std::max(makespan, e.t_end);
    if (e.kind == EventKind::oom) ++ooms;
    if (mirrorable(e.kind) && !on_device(e)) {
      auto it = device_events.find(key(e));
      if (it != device_events.end() && it->second > 0) {
        --it->second;
        ++mirrors;
        continue;
      }
    }
    auto& s = first ? by[t.event_name(e.name)].first : by[t.event_name(e.name)].second;
    ++s.count;
    s.total_s += e.t_end - e.t_start;
  }
}
}  // namespace

TraceComparison compare(const Trace& a, const Trace& b) {
  TraceComparison c;
  scan(a, c.makespan_a, c.oom_a, c.mirrors_a, true, c.by_name);
  scan(b, c.makespan_b, c.oom_b, c.mirrors_b, false, c.by_name);
  c.makespan_rel_error =
      c.makespan_b > 0 ? std::abs(c.makespan_a - c.makespan_b) / c.makespan_b : 0;
  return c;
}

}  // namespace prestage::model

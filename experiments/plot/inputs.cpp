#include "experiments/plot/inputs.hpp"

#include <fmt/format.h>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/errors.hpp"

namespace prestage::plot {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const json& field(const json& j, const char* key, const std::string& file, int line) {
  auto it = j.find(key);
  if (it == j.end()) throw InputError(file, line, key, "missing field");
  return *it;
}
double num(const json& j, const char* key, const std::string& file, int line) {
  const json& v = field(j, key, file, line);
  if (!v.is_number()) throw InputError(file, line, key, "expected a number, got " + v.dump());
  double d = v.get<double>();
  if (!std::isfinite(d)) throw InputError(file, line, key, "not a finite number");
  return d;
}
std::int64_t integer(const json& j, const char* key, const std::string& file, int line) {
  const json& v = field(j, key, file, line);
  if (!v.is_number_integer())
    throw InputError(file, line, key, "expected an integer, got " + v.dump());
  return v.get<std::int64_t>();
}
std::uint64_t count(const json& j, const char* key, const std::string& file, int line) {
  std::int64_t v = integer(j, key, file, line);
  if (v < 0) throw InputError(file, line, key, "expected >= 0, got " + std::to_string(v));
  return static_cast<std::uint64_t>(v);
}
std::string str(const json& j, const char* key, const std::string& file, int line) {
  const json& v = field(j, key, file, line);
  if (!v.is_string()) throw InputError(file, line, key, "expected a string, got " + v.dump());
  return v.get<std::string>();
}

json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    // byte offset -> line: count newlines up to it.
    std::ifstream again(path, std::ios::binary);
    int line = 1;
    std::size_t pos = 0;
    for (char c; pos < e.byte && again.get(c); ++pos)
      if (c == '\n') ++line;
    throw InputError(path, line, "", std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace

RunEvents read_events(const std::string& run_dir) {
  if (!fs::is_directory(run_dir)) throw InputError(run_dir, 0, "", "not a run directory");
  RunEvents r;
  r.file = (fs::path(run_dir) / "events.jsonl").string();
  std::ifstream in(r.file, std::ios::binary);
  if (!in) throw InputError(r.file, 0, "", "cannot open the run's event log");
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty()) continue;
    json j;
    try {
      j = json::parse(text);
    } catch (const json::parse_error& e) {
      throw InputError(r.file, line, "", std::string("not a JSON object: ") + e.what());
    }
    if (!j.is_object()) throw InputError(r.file, line, "", "not a JSON object");
    std::string kind = str(j, "kind", r.file, line);
    double t0 = num(j, "t_start", r.file, line), t1 = num(j, "t_end", r.file, line);
    if (t0 < 0) throw InputError(r.file, line, "t_start", "negative time");
    if (t1 < t0) throw InputError(r.file, line, "t_end", "ends before t_start");
    int gpu = static_cast<int>(integer(j, "gpu", r.file, line));
    r.t_end = std::max(r.t_end, t1);
    if (kind == "memory") {
      if (gpu < 0) throw InputError(r.file, line, "gpu", "a memory sample needs a GPU >= 0");
      r.memory.push_back({t0, gpu, count(j, "used", r.file, line),
                          count(j, "reserved", r.file, line), count(j, "free", r.file, line)});
      continue;
    }
    Slice s;
    s.t_start = t0;
    s.t_end = t1;
    s.kind = kind;
    s.track = str(j, "track", r.file, line);
    s.name = str(j, "name", r.file, line);
    s.gpu = gpu;
    s.worker = static_cast<int>(integer(j, "worker", r.file, line));
    s.partition = integer(j, "partition", r.file, line);
    s.bytes = count(j, "bytes", r.file, line);
    s.line = line;
    if (s.track.empty()) throw InputError(r.file, line, "track", "empty track name");
    r.slices.push_back(std::move(s));
  }
  if (line == 0) throw InputError(r.file, 0, "", "empty event log");
  return r;
}

namespace {
// Splits one CSV line; InputError on an unterminated quote.
std::vector<std::string> split_csv(const std::string& s, const std::string& file, int line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quoted) {
      if (c == '"' && i + 1 < s.size() && s[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"' && cur.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
      was_quoted = false;
    } else if (c == '\r' && i + 1 == s.size()) {
      // CRLF line ending
    } else {
      cur += c;
    }
  }
  if (quoted) throw InputError(file, line, "", "unterminated quoted field");
  out.push_back(cur);
  return out;
}
}  // namespace

Csv read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  Csv c;
  c.file = path;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty() || text == "\r") continue;
    auto f = split_csv(text, path, line);
    if (c.header.empty()) {
      c.header = f;
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i].empty()) throw InputError(path, line, "", "empty column name in header");
        for (std::size_t k = 0; k < i; ++k)
          if (f[k] == f[i]) throw InputError(path, line, f[i], "duplicate column");
      }
      continue;
    }
    if (f.size() != c.header.size())
      throw InputError(path, line, "",
                       "row has " + std::to_string(f.size()) + " fields, header has " +
                           std::to_string(c.header.size()));
    c.rows.push_back(std::move(f));
    c.row_line.push_back(line);
  }
  if (c.header.empty()) throw InputError(path, 0, "", "empty CSV (no header)");
  if (c.rows.empty()) throw InputError(path, line, "", "CSV has a header but no rows");
  return c;
}

std::size_t Csv::column(const std::string& name, const std::string& option) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  std::string have;
  for (const auto& h : header) have += (have.empty() ? "" : ", ") + h;
  throw InputError(file, 1, option,
                   "no column '" + name + "' in the header (columns: " + have + ")");
}

double Csv::number(std::size_t r, std::size_t c) const {
  const std::string& s = rows[r][c];
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || !std::isfinite(v))
    throw InputError(file, row_line[r], header[c], "expected a number, got '" + s + "'");
  return v;
}

namespace {
json read_summary(const std::string& run_dir, std::string* file) {
  if (!fs::is_directory(run_dir)) throw InputError(run_dir, 0, "", "not a run directory");
  *file = (fs::path(run_dir) / "summary.json").string();
  json j = read_json_file(*file);
  if (!j.is_object()) throw InputError(*file, 1, "", "summary is not a JSON object");
  return j;
}
}  // namespace

double summary_number(const std::string& run_dir, const std::string& dotted) {
  std::string file;
  json j = read_summary(run_dir, &file);
  const json* cur = &j;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    std::size_t dot = dotted.find('.', start);
    std::string part = dotted.substr(start, dot == std::string::npos ? dotted.npos : dot - start);
    if (cur->is_object() && cur->contains(part)) {
      cur = &(*cur)[part];
    } else if (cur->is_array() && !part.empty() &&
               part.find_first_not_of("0123456789") == std::string::npos &&
               std::stoul(part) < cur->size()) {
      cur = &(*cur)[std::stoul(part)];
    } else {
      throw InputError(file, 0, dotted, "no such field in the summary");
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!cur->is_number()) throw InputError(file, 0, dotted, "not a number: " + cur->dump());
  return cur->get<double>();
}

std::size_t summary_oom_count(const std::string& run_dir) {
  std::string file;
  json j = read_summary(run_dir, &file);
  auto it = j.find("oom_events");
  if (it == j.end() || !it->is_array())
    throw InputError(file, 0, "oom_events", "missing or not a list");
  return it->size();
}

RunInfo read_run_info(const std::string& run_dir) {
  if (!fs::is_directory(run_dir)) throw InputError(run_dir, 0, "", "not a run directory");
  RunInfo r;
  const std::string mf = (fs::path(run_dir) / "manifest.json").string();
  if (fs::exists(mf)) {
    json m = read_json_file(mf);
    if (!m.is_object()) throw InputError(mf, 1, "", "manifest is not a JSON object");
    r.tool = str(m, "tool", mf, 0);
    const json& sc = field(m, "scenario", mf, 0);
    if (!sc.is_object()) throw InputError(mf, 0, "scenario", "expected an object");
    r.scenario = str(sc, "name", mf, 0);
    auto rt = m.find("runtime");
    if (rt != m.end() && rt->is_object() && rt->contains("kernels"))
      r.kernels = str(*rt, "kernels", mf, 0);
  }
  if (fs::exists(fs::path(run_dir) / "summary.json"))
    r.makespan = summary_number(run_dir, "makespan_s");
  return r;
}

std::string run_label(const std::string& run_dir, const RunInfo& info, bool without_scenario) {
  std::string s = info.tool.empty()  ? run_dir
                  : without_scenario ? info.tool
                                     : info.tool + ": " + info.scenario;
  if (!info.kernels.empty() && info.kernels != "real") s += " (" + info.kernels + " kernels)";
  if (info.makespan >= 0) s += fmt::format(" (makespan {:.2f} s)", info.makespan);
  return s;
}

std::vector<ErrorRow> read_validation_report(const std::string& report) {
  json j = read_json_file(report);
  if (!j.is_object()) throw InputError(report, 1, "", "report is not a JSON object");
  const json& sc = field(j, "scenarios", report, 0);
  if (!sc.is_array()) throw InputError(report, 0, "scenarios", "expected a list");
  if (sc.empty()) throw InputError(report, 0, "scenarios", "no scenarios in the report");
  std::vector<ErrorRow> rows;
  for (std::size_t i = 0; i < sc.size(); ++i) {
    const std::string at = fmt::format("scenarios[{}]", i);
    const json& s = sc[i];
    if (!s.is_object()) throw InputError(report, 0, at, "expected an object");
    ErrorRow r;
    r.scenario = str(s, "scenario", report, 0);
    auto hb = s.find("held_back");
    if (hb == s.end()) throw InputError(report, 0, at + ".held_back", "missing field");
    if (!hb->is_boolean())
      throw InputError(report, 0, at + ".held_back", "expected true or false, got " + hb->dump());
    r.held_back = hb->get<bool>();
    auto figs = s.find("figures");
    if (figs == s.end() || !figs->is_array())
      throw InputError(report, 0, at + ".figures", "missing or not a list");
    const json* mk = nullptr;
    for (const auto& f : *figs)
      if (f.is_object() && f.value("name", "") == "makespan") mk = &f;
    const std::string fk = at + ".figures[makespan]";
    if (!mk) throw InputError(report, 0, fk, "no figure named makespan");
    auto number = [&](const char* k) {
      auto it = mk->find(k);
      if (it == mk->end()) throw InputError(report, 0, fk + "." + k, "missing field");
      if (!it->is_number())
        throw InputError(report, 0, fk + "." + k, "expected a number, got " + it->dump());
      return it->get<double>();
    };
    r.median = number("median");
    r.min = number("min");
    r.max = number("max");
    r.model = number("model");
    auto re = mk->find("rel_error");
    if (re == mk->end()) throw InputError(report, 0, fk + ".rel_error", "missing field");
    if (re->is_null())
      r.rel_error = NAN;
    else if (re->is_number())
      r.rel_error = re->get<double>();
    else
      throw InputError(report, 0, fk + ".rel_error",
                       "expected a number or null, got " + re->dump());
    if (!(r.min <= r.median && r.median <= r.max))
      throw InputError(report, 0, fk, "expected min <= median <= max");
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace prestage::plot

// `prestage compare A.jsonl B.jsonl [-o out.json]`: compares event log A (e.g. the model's) with
// reference B (e.g. a measured run): makespans and their relative error, out-of-memory counts,
// and per event name the count and summed duration on each side. Each kernel and copy counts once
// (its device-track event; the worker track's mirror of it is left out, see
// model/trace_compare.hpp), so a name's count matches summary.json's phase count.
#include <fmt/core.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "model/errors.hpp"
#include "model/trace_compare.hpp"

namespace {

void add_compare(CLI::App& app) {
  auto* cmd = app.add_subcommand("compare", "Compare two event logs (events.jsonl)");
  struct Opts {
    std::string a, b, out;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("a", o->a, "Event log to judge (e.g. simulated)")->required();
  cmd->add_option("b", o->b, "Reference event log (e.g. measured)")->required();
  cmd->add_option("-o,--out", o->out, "Write the comparison as JSON");
  namespace help = prestage::cli::help;
  cmd->footer(
      help::footer({{"Output files",
                     "with -o, a JSON file with keys a, b, makespan_a_s, makespan_b_s, "
                     "makespan_rel_error, oom_a, oom_b, host_mirrors_left_out_a, "
                     "host_mirrors_left_out_b, by_name.<event>.{count_a, count_b, total_a_s, "
                     "total_b_s}; without it, one line on stdout"},
                    {"Exit codes", help::exit_codes("compared (whatever the difference)")},
                    {"Accepts",
                     "events.jsonl files as `prestage simulate` and `prestage run --gpu` write "
                     "them (one trace event per line)"}}));
  cmd->callback([o] {
    auto c = prestage::model::compare(prestage::model::read_jsonl(o->a),
                                      prestage::model::read_jsonl(o->b));
    nlohmann::json j;
    j["a"] = o->a;
    j["b"] = o->b;
    j["makespan_a_s"] = c.makespan_a;
    j["makespan_b_s"] = c.makespan_b;
    j["makespan_rel_error"] = c.makespan_rel_error;
    j["oom_a"] = c.oom_a;
    j["oom_b"] = c.oom_b;
    j["host_mirrors_left_out_a"] = c.mirrors_a;
    j["host_mirrors_left_out_b"] = c.mirrors_b;
    for (const auto& [name, p] : c.by_name)
      j["by_name"][name] = {{"count_a", p.first.count},
                            {"count_b", p.second.count},
                            {"total_a_s", p.first.total_s},
                            {"total_b_s", p.second.total_s}};
    fmt::print("makespan {:.6f} s vs {:.6f} s (relative error {:.4f}); OOM events {} vs {}\n",
               c.makespan_a, c.makespan_b, c.makespan_rel_error, c.oom_a, c.oom_b);
    if (!o->out.empty()) {
      std::ofstream out(o->out);
      if (!out) throw prestage::InputError("", 0, "-o", "cannot write " + o->out);
      out << j.dump(2) << "\n";
    }
    prestage::cli::set_exit_code(0);
  });
}

PRESTAGE_REGISTER_COMMAND(add_compare);

}  // namespace

// `prestage policies [--json]`: every registered staging policy with its one-line doc, its file,
// and the parameters a scenario's `policy.params` may set for it (name, type, unit, default, doc):
// the inherited ones (release_threshold, pinning) first, then the policy's own.
#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "model/policy/policy.hpp"

namespace {

std::string type_text(const prestage::model::ParamDecl& d) {
  std::string t = prestage::model::to_string(d.type);
  if (!d.choices.empty()) {
    std::string c;
    for (const auto& x : d.choices) c += (c.empty() ? "" : "|") + x;
    t += " " + c;
  }
  return t;
}

void add_policies(CLI::App& app) {
  auto* cmd = app.add_subcommand("policies", "List the staging policies and their parameters");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print as JSON");
  namespace help = prestage::cli::help;
  cmd->footer(
      help::footer({{"Output files", "none: the list on stdout (text, or JSON with --json)"},
                    {"Exit codes", help::exit_codes("listed")},
                    {"Accepts", "no arguments; the policies: " + help::policies()}}));
  cmd->callback([json] {
    namespace m = prestage::model;
    nlohmann::json out = nlohmann::json::array();
    for (const auto& name : m::policy_names()) {
      const m::PolicyInfo* info = m::find_policy(name);
      const auto decls = m::declared_params(name);
      nlohmann::json jp = nlohmann::json::array();
      std::size_t w = 0;
      for (const auto& d : decls) w = std::max(w, d.name.size());
      if (!*json) fmt::print("{}  ({})\n  {}\n", name, info->file, info->doc);
      for (const auto& d : decls) {
        const bool inherited = std::any_of(m::common_params().begin(), m::common_params().end(),
                                           [&](const m::ParamDecl& c) { return c.name == d.name; });
        std::string def = d.default_value.empty() ? "(unset)" : d.default_value;
        jp.push_back({{"name", d.name},
                      {"type", m::to_string(d.type)},
                      {"choices", d.choices},
                      {"unit", d.unit},
                      {"default", d.default_value},
                      {"doc", d.doc},
                      {"inherited", inherited}});
        if (!*json)
          fmt::print("    {:<{}}  {}{}  default {}{}\n      {}\n", d.name, w, type_text(d),
                     d.unit.empty() ? "" : " [" + d.unit + "]", def,
                     inherited ? "  (every policy)" : "", d.doc);
      }
      out.push_back({{"name", name}, {"doc", info->doc}, {"file", info->file}, {"params", jp}});
      if (!*json) fmt::print("\n");
    }
    if (*json) fmt::print("{}\n", out.dump(2));
    prestage::cli::set_exit_code(0);
  });
}

PRESTAGE_REGISTER_COMMAND(add_policies);

}  // namespace

#pragma once
// The footers of the subcommands' --help: output files, exit codes, and the policies and
// scenario keys a command accepts, each a labelled paragraph wrapped to the terminal's usual
// width. Policies and keys come from the registry and the scenario loader themselves
// (model::policy_names(), model::scenario_sections()), so the help cannot drift from them.
#include <cctype>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "model/policy/policy.hpp"
#include "model/scenario.hpp"

namespace prestage::cli::help {

// "Label: text" wrapped at `width` columns, continuation lines indented by two spaces.
inline std::string paragraph(const std::string& label, const std::string& text,
                             std::size_t width = 96) {
  std::string out = label + ":", line = out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    const std::string word = text.substr(i, j - i);
    i = j + 1;
    if (word.empty()) continue;
    if (line.size() + 1 + word.size() > width && line.size() > 2) {
      out += "\n  ";
      line = "  ";
    } else {
      out += " ";
      line += " ";
    }
    out += word;
    line += word;
  }
  return out;
}

inline std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

using Parts = std::vector<std::pair<std::string, std::string>>;

// The footer: one paragraph per (label, text), in order.
inline std::string footer(const Parts& parts) {
  std::string s;
  for (const auto& [label, text] : parts) s += (s.empty() ? "" : "\n") + paragraph(label, text);
  return s;
}

// Registered staging policies (scenario key policy.name).
inline std::string policies() {
  return join(model::policy_names()) + " (scenario key policy.name; docs/adding-a-policy.md)";
}

// A scenario's keys by section, e.g. "top level: schema, name, ...; workload: log2_n, ...".
inline std::string scenario_keys() {
  std::string s;
  for (const auto& sec : model::scenario_sections())
    s += (s.empty() ? "" : "; ") + (sec.name.empty() ? std::string("top level") : sec.name) + ": " +
         join(sec.keys);
  return s +
         "; policy.params: what the chosen policy declares (`prestage policies`); phases: a "
         "kernel or cpu step of the pipeline -> seconds (files: data/scenarios/)";
}

// Exit codes shared by every subcommand (main.cpp maps the exceptions).
inline constexpr const char* kBadInput =
    "2 bad input (the message names the file, line and key; nothing written)";
inline constexpr const char* kInternal = "3 internal error (nothing written)";

// The "Exit codes" paragraph: "0 <done>; 2 bad input<bad_input_also>; 3 internal error<more>".
inline std::string exit_codes(const std::string& done, const std::string& bad_input_also = "",
                              const std::string& more = "") {
  return "0 " + done + "; " + kBadInput + bad_input_also + "; " + kInternal + more;
}

// The "Output files" paragraph of a command that writes one run directory (simulate, run,
// replay), `manifest` saying what its manifest.json holds beyond the common fields.
inline std::string run_dir_outputs(const std::string& manifest = "",
                                   const std::string& written = "") {
  return "in DIR (-o): summary.json, events.jsonl, trace.json (Perfetto), manifest.json" +
         (manifest.empty() ? "" : " " + manifest) + (written.empty() ? "" : "; " + written) +
         "; --force replaces only a directory prestage wrote";
}

// `parts` followed by the paragraphs of a command that reads scenarios: the policies and the
// scenario keys, each with an optional sentence after it.
inline Parts with_scenario_parts(Parts parts, const std::string& policies_also = "",
                                 const std::string& keys_also = "") {
  parts.emplace_back("Policies", policies() + policies_also);
  parts.emplace_back("Scenario keys", scenario_keys() + keys_also);
  return parts;
}

// `w` as one shell word (command lines recorded in manifests): as is when it has no special
// characters, else in single quotes.
inline std::string shell_word(const std::string& w) {
  bool plain = !w.empty();
  for (char c : w)
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_-.=/:,+@%", c));
  if (plain) return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace prestage::cli::help

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "model/policy/policy.hpp"
#include "model/yaml_input.hpp"

namespace prestage::model {

static std::map<std::string, PolicyInfo>& registry() {
  static std::map<std::string, PolicyInfo> r;
  return r;
}

void register_policy(PolicyInfo info) {
  // __FILE__ may be absolute: keep the path from the repository's model/ on.
  if (auto k = info.file.rfind("model/policies/"); k != std::string::npos)
    info.file = info.file.substr(k);
  std::string name = info.name;
  registry()[name] = std::move(info);
}

const PolicyInfo* find_policy(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> policy_names() {
  std::vector<std::string> out;
  for (auto& [k, v] : registry()) out.push_back(k);
  return out;
}

// The driver-level parameters: every policy takes them; both drivers read them through
// PolicyParams::has_release_threshold / release_threshold and Policy::pinning().
const std::vector<ParamDecl>& common_params() {
  static const std::vector<ParamDecl> c = {
      {"release_threshold",
       ParamType::bytes,
       "B",
       "",
       "the pool's release threshold, set by the driver on each GPU's pool (unset: the "
       "calibration's)",
       {}},
      {"pinning",
       ParamType::choice,
       "",
       "",
       "how host inputs are made uploadable (default: the policy's own)",
       {"register_per_partition", "pinned_pool", "pageable"}},
  };
  return c;
}

std::vector<ParamDecl> declared_params(const std::string& name) {
  const PolicyInfo* info = find_policy(name);
  if (!info) return {};
  std::vector<ParamDecl> out = common_params();
  for (auto& d : out)
    if (d.name == "pinning") d.default_value = to_string(info->default_pinning);
  out.insert(out.end(), info->params.begin(), info->params.end());
  return out;
}

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::bytes:
      return "bytes";
    case ParamType::choice:
      return "choice";
    case ParamType::choices:
      return "list";
    case ParamType::flag:
      return "bool";
    case ParamType::integer:
      return "integer";
  }
  return "?";
}

const char* to_string(TrimTiming t) {
  switch (t) {
    case TrimTiming::never:
      return "never";
    case TrimTiming::before_check:
      return "before_check";
    case TrimTiming::after_partition:
      return "after_partition";
    case TrimTiming::on_failure:
      return "on_failure";
  }
  return "?";
}
const char* to_string(PinMode m) {
  switch (m) {
    case PinMode::register_per_partition:
      return "register_per_partition";
    case PinMode::pinned_pool:
      return "pinned_pool";
    case PinMode::pageable:
      return "pageable";
  }
  return "?";
}
PinMode pin_mode_from(const std::string& s) {
  if (s == "pinned_pool") return PinMode::pinned_pool;
  if (s == "pageable") return PinMode::pageable;
  if (s == "register_per_partition") return PinMode::register_per_partition;
  throw std::logic_error("unknown pinning mode '" + s + "'");
}

static std::string bytes_text(std::uint64_t b) {
  constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024, TiB = GiB * 1024;
  if (b != 0) {
    if (b % TiB == 0) return fmt::format("{} TiB", b / TiB);
    if (b % GiB == 0) return fmt::format("{} GiB", b / GiB);
    if (b % MiB == 0) return fmt::format("{} MiB", b / MiB);
    if (b % KiB == 0) return fmt::format("{} KiB", b / KiB);
  }
  return fmt::format("{} B", b);
}

std::string ParamValue::text() const {
  if (!set) return "";
  switch (type) {
    case ParamType::bytes:
      return bytes_text(bytes);
    case ParamType::choice:
      return choice;
    case ParamType::choices: {
      std::string s = "[";
      for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : "") + choices[i];
      return s + "]";
    }
    case ParamType::flag:
      return flag ? "true" : "false";
    case ParamType::integer:
      return std::to_string(integer);
  }
  return "";
}

const ParamValue& PolicyParams::at(const std::string& name, ParamType t) const {
  auto it = values_.find(name);
  if (it == values_.end())
    throw std::logic_error("policy parameter '" + name + "' is not declared by this policy");
  if (it->second.type != t)
    throw std::logic_error("policy parameter '" + name + "' is a " + to_string(it->second.type) +
                           ", read as a " + to_string(t));
  return it->second;
}
std::uint64_t PolicyParams::bytes(const std::string& n) const {
  return at(n, ParamType::bytes).bytes;
}
std::int64_t PolicyParams::integer(const std::string& n) const {
  return at(n, ParamType::integer).integer;
}
bool PolicyParams::flag(const std::string& n) const {
  return at(n, ParamType::flag).flag;
}
const std::string& PolicyParams::choice(const std::string& n) const {
  return at(n, ParamType::choice).choice;
}
const std::vector<std::string>& PolicyParams::choices(const std::string& n) const {
  return at(n, ParamType::choices).choices;
}
bool PolicyParams::given(const std::string& n) const {
  auto it = values_.find(n);
  return it != values_.end() && it->second.given;
}
std::map<std::string, std::string> PolicyParams::resolved_text() const {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : values_) out[k] = v.text();
  return out;
}

static std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

static std::string one_of(const yaml::In& q, const ParamDecl& d) {
  std::string s = q.str();
  if (std::find(d.choices.begin(), d.choices.end(), s) == d.choices.end())
    q.fail("expected one of: " + join(d.choices) + "; got '" + s + "'");
  return s;
}

// One value of declaration `d` (InputError at q on a bad value).
static ParamValue parse_value(const ParamDecl& d, const yaml::In& q) {
  ParamValue v;
  v.type = d.type;
  v.set = true;
  switch (d.type) {
    case ParamType::bytes:
      v.bytes = q.bytes();
      break;
    case ParamType::choice:
      v.choice = one_of(q, d);
      break;
    case ParamType::choices:
      if (!q.is_seq()) q.fail("expected a list of: " + join(d.choices));
      for (std::size_t i = 0; i < q.size(); ++i) v.choices.push_back(one_of(q.item(i), d));
      if (v.choices.empty()) q.fail("expected at least one of: " + join(d.choices));
      break;
    case ParamType::flag:
      v.flag = q.boolean();
      break;
    case ParamType::integer:
      v.integer = q.integer();
      break;
  }
  return v;
}

static ParamValue default_value(const std::string& policy, const ParamDecl& d) {
  if (d.default_value.empty()) {
    ParamValue v;
    v.type = d.type;
    return v;  // unset
  }
  const std::string where = "<default of " + policy + "." + d.name + ">";
  return parse_value(d, yaml::In(yaml::load_string(d.default_value, where), where, d.name));
}

// Fills what `p` lacks with the declared defaults and the typed members from the values.
static PolicyParams complete(const PolicyInfo& info, PolicyParams p) {
  // A PolicyParams built in code may carry the inherited ones only in the typed members.
  if (!p.has("release_threshold") && p.has_release_threshold) {
    ParamValue v;
    v.type = ParamType::bytes;
    v.set = v.given = true;
    v.bytes = p.release_threshold;
    p.set("release_threshold", v);
  }
  if (!p.has("pinning") && p.has_pinning) {
    ParamValue v;
    v.type = ParamType::choice;
    v.set = v.given = true;
    v.choice = to_string(p.pinning);
    p.set("pinning", v);
  }
  for (const auto& d : declared_params(info.name))
    if (!p.has(d.name)) p.set(d.name, default_value(info.name, d));
  const ParamValue& rt = p.values().at("release_threshold");
  p.has_release_threshold = rt.set;
  p.release_threshold = rt.set ? rt.bytes : 0;
  p.has_pinning = p.given("pinning");
  p.pinning = pin_mode_from(p.choice("pinning"));
  return p;
}

PolicyParams parse_policy_params(const std::string& name, const yaml::In& q) {
  const PolicyInfo* info = find_policy(name);
  if (!info) q.fail("unknown policy '" + name + "' (registered: " + join(policy_names()) + ")");
  PolicyParams p;
  if (q.node().IsDefined() && !q.node().IsNull()) {
    if (!q.is_map()) q.fail("expected a map of the policy's parameters");
    const auto decls = declared_params(name);
    std::vector<std::string> names;
    for (const auto& d : decls) names.push_back(d.name);
    for (auto it = q.node().begin(); it != q.node().end(); ++it) {
      const std::string k = it->first.Scalar();
      auto d =
          std::find_if(decls.begin(), decls.end(), [&](const ParamDecl& x) { return x.name == k; });
      if (d == decls.end()) {
        int ln = it->first.Mark().line >= 0 ? it->first.Mark().line + 1 : q.line();
        throw InputError(q.file(), ln, q.path().empty() ? k : q.path() + "." + k,
                         "policy '" + name + "' (" + info->file + ") does not declare parameter '" +
                             k + "'; it takes: " + join(names) + " (see `prestage policies`)");
      }
      ParamValue v = parse_value(*d, q.at(k));
      v.given = true;
      p.set(k, v);
    }
  }
  return complete(*info, std::move(p));
}

PolicyParams policy_params(const std::string& name, const std::string& text,
                           const std::string& where) {
  YAML::Node n = text.empty() ? YAML::Node() : yaml::load_string(text, where);
  return parse_policy_params(name, yaml::In(n, where, "policy.params"));
}

std::unique_ptr<Policy> make_policy(const std::string& name, const PolicyParams& p) {
  const PolicyInfo* info = find_policy(name);
  if (!info) return nullptr;
  return info->make(complete(*info, p));
}

}  // namespace prestage::model

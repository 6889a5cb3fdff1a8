#include <algorithm>
#include <map>

#include "model/policy/policy.hpp"
#include "model/yaml_input.hpp"

namespace prestage::model {

static std::map<std::string, PolicyFactory>& registry() {
  static std::map<std::string, PolicyFactory> r;
  return r;
}

void register_policy(const std::string& name, PolicyFactory f) {
  registry()[name] = std::move(f);
}

std::unique_ptr<Policy> make_policy(const std::string& name, const PolicyParams& p) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second(p);
}

std::vector<std::string> policy_names() {
  std::vector<std::string> out;
  for (auto& [k, v] : registry()) out.push_back(k);
  return out;
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

const std::vector<std::string>& policy_param_keys() {
  static const std::vector<std::string> keys = {"margin",  "trim",  "sync",  "release_threshold",
                                                "pinning", "tiers", "budget"};
  return keys;
}

PolicyParams parse_policy_params(const yaml::In& q) {
  PolicyParams p;
  if (!q.node().IsDefined() || q.node().IsNull()) return p;
  q.expect_map(policy_param_keys());
  if (q.has("margin")) p.margin = q.at("margin").bytes();
  if (q.has("trim")) {
    std::string t = q.at("trim").choice({"never", "before_check", "after_partition", "on_failure"});
    p.trim = t == "never"             ? TrimTiming::never
             : t == "before_check"    ? TrimTiming::before_check
             : t == "after_partition" ? TrimTiming::after_partition
                                      : TrimTiming::on_failure;
  }
  if (q.has("sync")) {
    std::string s = q.at("sync").choice({"none", "stream", "event", "device"});
    p.sync = s == "none"     ? SyncKind::none
             : s == "stream" ? SyncKind::stream
             : s == "event"  ? SyncKind::event
                             : SyncKind::device;
  }
  if (q.has("release_threshold")) {
    p.has_release_threshold = true;
    p.release_threshold = q.at("release_threshold").bytes();
  }
  if (q.has("pinning")) {
    p.has_pinning = true;
    std::string s = q.at("pinning").choice({"register_per_partition", "pinned_pool", "pageable"});
    p.pinning = s == "register_per_partition" ? PinMode::register_per_partition
                : s == "pinned_pool"          ? PinMode::pinned_pool
                                              : PinMode::pageable;
  }
  if (q.has("tiers")) {
    yaml::In t = q.at("tiers");
    p.tiers.clear();
    for (std::size_t i = 0; i < t.size(); ++i) {
      std::string s = t.item(i).choice({"both", "a_only"});
      p.tiers.push_back(s == "both" ? 2 : 1);
    }
  }
  if (q.has("budget")) p.budget = q.at("budget").bytes();
  return p;
}

}  // namespace prestage::model

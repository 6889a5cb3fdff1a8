// baseline: no pre-staging. Inputs stay pageable (unless `pinning` says otherwise) and are
// uploaded by the pipeline's own steps inside the GPU lock.
#include "model/policy/policy.hpp"

namespace prestage::model {
namespace {
class Baseline final : public Policy {
 public:
  explicit Baseline(PolicyParams p) : Policy(std::move(p)) {}
  bool prestages() const override { return false; }
  int place(MemoryView&, const StagingRequest&) override { return 0; }
};
}  // namespace
PRESTAGE_REGISTER_POLICY({
    .name = "baseline",
    .doc = "no pre-staging: pageable inputs uploaded by the pipeline's steps inside the lock",
    .default_pinning = PinMode::pageable,
    .params = {},
    .make = [](const PolicyParams& p) { return std::make_unique<Baseline>(p); },
});
}  // namespace prestage::model

// naive: pre-stage every stage group (pin, allocate, upload on the copy stream) outside the lock,
// with no memory check. A failed allocation fails the partition (the reported OOM cascade).
#include "model/policy/policy.hpp"

namespace prestage::model {
namespace {
class Naive final : public Policy {
 public:
  explicit Naive(PolicyParams p) : Policy(std::move(p)) {}
  bool prestages() const override { return true; }
  int place(MemoryView&, const StagingRequest& req) override {
    return static_cast<int>(req.group_bytes.size());
  }
};
}  // namespace
PRESTAGE_REGISTER_POLICY({
    .name = "naive",
    .doc = "pre-stage every stage group outside the lock, no memory check; an OOM fails the "
           "partition",
    .default_pinning = PinMode::register_per_partition,
    .params = {},
    .make = [](const PolicyParams& p) { return std::make_unique<Naive>(p); },
});
}  // namespace prestage::model

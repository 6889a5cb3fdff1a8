// Probe section msm_workspace: the device workspace one MSM call takes, per curve and size, with
// the default options and with the least-memory ones (msm::least_workspace_options: XYZZ, the
// scalars read per window group). The staging runtime splits a resident-points MSM into pieces
// when even the least does not fit its pipeline's workspace (model/msm_split.hpp); the calibration
// gives the simulator the same need (msm_workspace.g1 / g2), so both drivers split alike. A query,
// not a timing: msm::device_workspace_bytes lays the workspace out from n and the options and asks
// CUB for its sort storage on this device; nothing is allocated.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "gpu/msm/gpu_msm.hpp"
#include "gpu/probe/probes.hpp"

namespace prestage::probe {

Json probe_msm_workspace(ProbeContext& c) {
  // 2^16-2^27: the sizes the pipelines' MSMs and their pieces take (2^27 in 16 pieces is 2^23).
  const int first = 16, last = c.quick ? 20 : 27;
  Json rows = Json::array();
  Json summary = Json::object();
  const msm::DeviceOptions defaults{};
  const msm::DeviceOptions least = msm::least_workspace_options(defaults);
  for (const char* curve : {"g1", "g2"}) {
    Json least_pts = Json::array();
    for (int log_n = first; log_n <= last; ++log_n) {
      const std::size_t n = std::size_t{1} << log_n;
      const auto need = [&](const msm::DeviceOptions& o) {
        return std::string(curve) == "g2" ? msm::device_workspace_bytes<msm::G2Curve>(n, o)
                                          : msm::device_workspace_bytes<msm::G1Curve>(n, o);
      };
      const std::size_t default_b = need(defaults), least_b = need(least);
      rows.push_back(
          {{"curve", curve}, {"log2_n", log_n}, {"default_B", default_b}, {"least_B", least_b}});
      least_pts.push_back({log_n, least_b});
      fmt::print("msm_workspace {} 2^{}: default {} B ({:.1f} B a point), least {} B ({:.1f})\n",
                 curve, log_n, default_b, static_cast<double>(default_b) / static_cast<double>(n),
                 least_b, static_cast<double>(least_b) / static_cast<double>(n));
    }
    summary[curve] = std::move(least_pts);
  }
  summary["options"] =
      "least_B: msm::device_workspace_bytes with msm::least_workspace_options(DeviceOptions{}) "
      "(XYZZ accumulation, scalars read per window group); default_B: with DeviceOptions{}";
  return {{"rows", rows}, {"summary", summary}};
}

}  // namespace prestage::probe

// prestage_sim_bench: throughput of the simulator (not a test; figures go to the README).
// Axes and results:
//   engine   P processes x K timed waits with pseudo-random delays (agenda of P entries):
//            engine events per second on one thread;
//   scenario one run of SCENARIO without trace recording: engine events per second;
//   sweep    POINTS points (policy.params.margin = 0..POINTS-1 MiB) of SCENARIO on THREADS
//            threads: wall seconds.
// Prints the figures with the machine and date, and writes them as JSON with --json FILE.
#include <fmt/core.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <time.h>
#include <CLI/CLI.hpp>
#include <chrono>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "model/scenario.hpp"
#include "sim/engine.hpp"
#include "sim/runner.hpp"
#include "sim/sweep.hpp"

using namespace prestage::sim;
using Clock = std::chrono::steady_clock;

namespace {

Task<void> ticker(Engine& e, std::uint64_t seed, int k) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int i = 0; i < k; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;  // LCG: delays in (0, 1] ms
    co_await e.delay(1e-3 * (static_cast<double>(x >> 11) * 0x1.0p-53 + 1e-9));
  }
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU seconds of the calling thread (robust to other processes sharing the cores).
double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"prestage simulator benchmark"};
  int procs = 1000, per_proc = 10000, points = 1000, threads = 2;
  std::string scenario = "data/scenarios/two_workers_16gib_tiers.yaml", json_out;
  app.add_option("--procs", procs, "engine: processes");
  app.add_option("--waits", per_proc, "engine: timed waits per process");
  app.add_option("--scenario", scenario, "scenario for the scenario and sweep axes");
  app.add_option("--points", points, "sweep: points");
  app.add_option("--threads", threads, "sweep: threads");
  app.add_option("--json", json_out, "write results as JSON");
  CLI11_PARSE(app, argc, argv);

  nlohmann::json out;
  utsname u{};
  uname(&u);
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  out["machine"] = {{"host", u.nodename},
                    {"cpu", cpu_model()},
                    {"hardware_threads", std::thread::hardware_concurrency()},
                    {"kernel", std::string(u.sysname) + " " + u.release}};
  out["date"] = date;
  fmt::print("machine: {} ({} hardware threads), {}\n", cpu_model(),
             std::thread::hardware_concurrency(), date);

  {  // engine
    Engine e;
    Processes p(e);
    for (int i = 0; i < procs; ++i) p.spawn(ticker(e, static_cast<std::uint64_t>(i), per_proc));
    auto t0 = Clock::now();
    double c0 = thread_cpu();
    e.run();
    double s = seconds_since(t0), cpu = thread_cpu() - c0;
    double ev = static_cast<double>(e.events_processed());
    out["engine"] = {{"processes", procs},
                     {"waits_per_process", per_proc},
                     {"events", e.events_processed()},
                     {"wall_s", s},
                     {"thread_cpu_s", cpu},
                     {"events_per_wall_s", ev / s},
                     {"events_per_cpu_s", ev / cpu}};
    fmt::print(
        "engine:   {} events ({} processes x {} waits): {:.3f} s wall = {:.2f} M events/s; "
        "{:.3f} s thread CPU = {:.2f} M events/s (1 thread)\n",
        e.events_processed(), procs, per_proc, s, ev / s / 1e6, cpu, ev / cpu / 1e6);
  }
  {  // scenario
    auto sc = load_scenario(scenario);
    auto t0 = Clock::now();
    double c0 = thread_cpu();
    int reps = 0;
    std::uint64_t events = 0;
    while (seconds_since(t0) < 1.0) {
      events += run_scenario(sc, false).summary.engine_events;
      ++reps;
    }
    double s = seconds_since(t0), cpu = thread_cpu() - c0;
    out["scenario"] = {{"file", scenario},
                       {"runs", reps},
                       {"events", events},
                       {"wall_s", s},
                       {"thread_cpu_s", cpu},
                       {"cpu_s_per_run", cpu / reps},
                       {"events_per_cpu_s", static_cast<double>(events) / cpu}};
    fmt::print(
        "scenario: {} runs of {} ({} engine events each): {:.3f} ms thread CPU per run = "
        "{:.2f} M events/CPU s\n",
        reps, scenario, events / static_cast<std::uint64_t>(reps), 1e3 * cpu / reps,
        static_cast<double>(events) / cpu / 1e6);
  }
  {  // sweep
    Vary v;
    v.key = "policy.params.margin";
    for (int i = 0; i < points; ++i) v.values.push_back(std::to_string(i) + "MiB");
    auto t0 = Clock::now();
    auto res = run_sweep(scenario, {v}, threads);
    double s = seconds_since(t0);
    out["sweep"] = {
        {"file", scenario}, {"points", res.size()}, {"threads", threads}, {"seconds", s}};
    fmt::print("sweep:    {} points of {} on {} threads in {:.3f} s\n", res.size(), scenario,
               threads, s);
  }
  if (!json_out.empty()) std::ofstream(json_out) << out.dump(2) << "\n";
  return 0;
}

#pragma once
// The PCIe link of one GPU: two directions (0 = host to device, 1 = device to host). Each transfer
// has its own rate cap (the calibrated bandwidth for its size and pinning); the directions have
// an aggregate capacity each and the link a bidirectional one. In `shared` mode the active
// transfers get max-min fair rates under those constraints (progressive filling), recomputed
// whenever a transfer starts or ends; in `queued` mode each direction serves its transfers one at a
// time in submission order (the head still shares the bidirectional capacity fairly).
#include <coroutine>
#include <cstdint>
#include <deque>
#include <vector>

#include "model/calibration.hpp"
#include "sim/engine.hpp"

namespace prestage::sim {

class Link final : public Wakeable {
 public:
  // Per direction (0 = h2d, 1 = d2h): sharing mode and aggregate capacity (B/s).
  Link(Engine& e, model::LinkSharing h2d_mode, double h2d_capacity, model::LinkSharing d2h_mode,
       double d2h_capacity, double bidirectional_capacity)
      : e_(e),
        mode_{h2d_mode, d2h_mode},
        dir_cap_{h2d_capacity, d2h_capacity},
        total_cap_(bidirectional_capacity) {}
  // Both directions alike.
  Link(Engine& e, model::LinkSharing mode, double direction_capacity, double bidirectional_capacity)
      : Link(e, mode, direction_capacity, mode, direction_capacity, bidirectional_capacity) {}

  struct Transfer {
    Link& l;
    int dir;
    double bytes, cap;
    bool await_ready() const noexcept { return bytes <= 0; }
    void await_suspend(std::coroutine_handle<> h) { l.start(dir, bytes, cap, h); }
    void await_resume() const noexcept {}
  };
  // Awaitable: moves `bytes` (B) in `dir` at most at `cap` (B/s); resumes when the last byte is in.
  Transfer transfer(int dir, double bytes, double cap) { return Transfer{*this, dir, bytes, cap}; }

  double bytes_moved(int dir) const { return moved_[dir]; }  // B completed
  int active(int dir) const { return active_[dir]; }
  double current_rate(int dir) const;  // B/s right now

  void wake(std::uint64_t token) override;

 private:
  struct Flow {
    double remaining = 0, bytes = 0, cap = 0, rate = 0;
    int dir = 0;
    bool active = false;  // in the rate computation (queued mode: only the head per direction)
    bool used = false;
    std::coroutine_handle<> h;
  };
  void start(int dir, double bytes, double cap, std::coroutine_handle<> h);
  void advance();
  void recompute();
  void reschedule();

  Engine& e_;
  model::LinkSharing mode_[2];
  double dir_cap_[2], total_cap_;
  std::vector<Flow> flows_;
  std::vector<int> free_slots_;
  std::vector<char> frozen_;  // scratch of recompute()
  std::deque<int> fifo_[2];
  int active_[2] = {0, 0};
  double moved_[2] = {0, 0};
  Time last_ = 0;
  std::uint64_t gen_ = 0;
};

}  // namespace prestage::sim

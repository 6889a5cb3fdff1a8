# Sourced by the device-call scripts (scripts/gpu_msm_helper_run.sh, scripts/gpu_ntt_run.sh); not
# run on its own. After `gpu_run_begin OUT BIN BUDGET_S SUMMARY_FILE`: OUT exists, BIN leads
# LD_LIBRARY_PATH, t0 is the call's start, `left` prints the seconds of the budget left and
# `step NAME WHAT` appends "NAME WHAT (t=S s)" to SUMMARY_FILE (and prints it).
# `gpu_run_env COMMIT_LINE`: date, the commit line, host and nvidia-smi on standard output.
gpu_run_begin() {
  gpu_run_out=$1 gpu_run_budget=$3 gpu_run_summary=$4
  t0=$(date +%s)
  mkdir -p "$gpu_run_out"
  export LD_LIBRARY_PATH="$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}
left() { echo $((gpu_run_budget - ($(date +%s) - t0))); }
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$gpu_run_summary"; }
gpu_run_env() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $1"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
}

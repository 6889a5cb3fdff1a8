#pragma once
// Step 4 of on_device (gpu/msm/gpu_msm.hpp): each window's bucket sums reduced to sum_k (k + 1)
// B_k, by running sums over parts of the window in parallel, then a tree over the parts. Internal
// to gpu_msm_impl.cuh: included only from there (after msm_accumulate.cuh), once per curve TU
// (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace (internal linkage,
// one copy per TU), so never include it anywhere else.
//
// Takes: groups windows of 2^(c-1) buckets each, bucket b's sum (Curve::Xyzz) at items[start[b]]
// when end[b] > start[b] (step 3's output; start / end groups 2^(c-1) x unsigned each).
// Produces: out[w] (groups x Curve::Xyzz, into the call's window sums). Scratch: part_sums,
// groups x parts Curve::Xyzz (at most part_cap; three times that with DeviceReduce::SuffixScan).

namespace prestage::msm {

namespace {

// Buckets one thread reduces (step 4): kPartLong, or the curve's short part when the group has
// at most kShortBuckets buckets (the reduction is then latency-bound: a shorter serial chain of
// 2 part_len additions + the double-and-add by j part_len + log2(parts) tree levels). Measured
// on the H200, one group of 20 windows at 2^20, c = 13: G1 3.1 ms with parts of 4 vs 3.5 with
// parts of 16; G2 parts of 8 beat 4, 16 and 32 (3.30 vs 4.12 / 3.52 / 5.14 ms in blocks of 32:
// its additions spill, so more parts cost more than the shorter chain saves). A recursive
// reduction lost (gpu/msm/DECISIONS.md #5).
constexpr unsigned kPartLong = 16;
constexpr std::size_t kShortBuckets = std::size_t{1} << 17;
constexpr unsigned reduce_part_short(G1Curve) {
  return 4;
}
constexpr unsigned reduce_part_short(G2Curve) {
  return 8;  // beats 4, 16 and 32 in blocks of 32 (above)
}
// The same for DeviceReduce::SuffixScan (nb: the group's buckets), whose chain a thread is 2 M
// additions + log2 M doublings (no per-part double-and-add), then log2(N / M) scan steps, one
// addition and log2(N / M) tree levels (N buckets a window). Shorter parts shorten the chain but
// every step then runs more threads. G2 takes the shortest part (>= 2) that leaves at most
// kScanThreads threads: M = 8 at 2^20, 4 at 2^22. Measured on the H200, G2 2^20 reduce phase at
// M = 2/4/8/16 -> 4.26/2.77/2.53/3.26 ms (gpu/msm/DECISIONS.md #21). G1 (SuffixScan not its
// default): 4 (G1 2^20 reduce 0.85 vs DoubleAdd's 1.05 ms).
constexpr std::size_t kScanThreads = 12288;
constexpr unsigned reduce_part_short_scan(G1Curve, std::size_t) {
  return 4;
}
constexpr unsigned reduce_part_short_scan(G2Curve, std::size_t nb) {
  unsigned m = 2;
  while (nb / m > kScanThreads) m *= 2;
  return m;
}
// Bound on a group's parts under that rule (nb_max buckets; groups of at most kShortBuckets
// buckets take the short part, larger ones kPartLong), for the workspace.
constexpr std::size_t reduce_scan_parts_max(G1Curve, std::size_t nb_max) {
  return nb_max / 4;
}
constexpr std::size_t reduce_scan_parts_max(G2Curve, std::size_t nb_max) {
  return std::max(nb_max / kPartLong, kScanThreads);
}

// Thread t = w parts + j of a reduction kernel: the running sums over part j of window w
// (buckets j M .. j M + M - 1 of the window's 2^(c-1), M = part_len), from the top bucket down:
// running = sum_k B_k, acc = sum_k (k - j M + 1) B_k (an empty bucket, end <= start, adds
// nothing); returns j. Shared by both reduction schemes.
template <class Curve>
__device__ __forceinline__ unsigned part_running_sums(const typename Curve::Xyzz* partial,
                                                      const unsigned* start, const unsigned* end,
                                                      unsigned c, unsigned parts, unsigned part_len,
                                                      unsigned t, typename Curve::Xyzz& running,
                                                      typename Curve::Xyzz& acc) {
  using O = Ops<Curve>;
  const unsigned w = t / parts, j = t % parts;
  const std::size_t bucket0 = std::size_t{w} << (c - 1);
  running = O::zero();
  acc = O::zero();
  for (unsigned k = (j + 1) * part_len; k-- > j * part_len;) {
    const std::size_t b = bucket0 + k;
    if (end[b] > start[b]) running = O::add(running, partial[start[b]]);
    acc = O::add(acc, running);
  }
  return j;
}

// Running-sum reduction of one part (part_len buckets) of one window (t = w parts + j):
// out[t] = sum_{k in part} (k + 1) B_k = sum (k - j M + 1) B_k + j M sum B_k, M = part_len.
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    bucket_reduce_kernel(const typename Curve::Xyzz* partial, const unsigned* start,
                         const unsigned* end, unsigned c, unsigned groups, unsigned parts,
                         unsigned part_len, typename Curve::Xyzz* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * parts) return;
  using O = Ops<Curve>;
  typename Curve::Xyzz running, acc;
  const unsigned j =
      part_running_sums<Curve>(partial, start, end, c, parts, part_len, t, running, acc);
  const unsigned mult = j * part_len;
  auto scaled = O::zero();
  for (int bit = mult == 0 ? -1 : 31 - __clz(mult); bit >= 0; --bit) {
    scaled = O::dbl(scaled);
    if ((mult >> bit) & 1) scaled = O::add(scaled, running);
  }
  out[t] = O::add(acc, scaled);
}

// parts_sum[w parts + j] += parts_sum[w parts + j + half] for j < half (one tree level).
template <class Curve>
__global__ void tree_kernel(typename Curve::Xyzz* parts_sum, unsigned groups, unsigned parts,
                            unsigned half) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * half) return;
  const unsigned w = t / half, j = t % half;
  auto& a = parts_sum[std::size_t{w} * parts + j];
  a = Ops<Curve>::add(a, parts_sum[std::size_t{w} * parts + j + half]);
}

// DeviceReduce::SuffixScan, the parts (t = w parts + j, part_len = M buckets): acc[t] = sum_k
// (k - j M + 1) B_k over the part's buckets k (the running sums, as bucket_reduce_kernel) and
// scaled[t] = M sum_k B_k (log2 M doublings; M a power of 2).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    bucket_part_scan_kernel(const typename Curve::Xyzz* partial, const unsigned* start,
                            const unsigned* end, unsigned c, unsigned groups, unsigned parts,
                            unsigned part_len, typename Curve::Xyzz* acc_out,
                            typename Curve::Xyzz* scaled_out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * parts) return;
  using O = Ops<Curve>;
  typename Curve::Xyzz running, acc;
  part_running_sums<Curve>(partial, start, end, c, parts, part_len, t, running, acc);
  for (unsigned m = part_len; m > 1; m >>= 1) running = O::dbl(running);
  acc_out[t] = acc;
  scaled_out[t] = running;
}

// One step of the inclusive suffix scan over each window's parts (Hillis-Steele): out[w parts +
// j] = in[w parts + j] + in[w parts + j + stride] when j + stride < parts, else in[w parts + j].
// The last step (acc != nullptr) writes no out: it adds the scan's S_j to acc[w parts + j] for j
// >= 1 instead (sum_{j >= 1} S_j = sum_j j M sum(part j): the parts' offsets).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    suffix_scan_step_kernel(const typename Curve::Xyzz* in, typename Curve::Xyzz* out,
                            typename Curve::Xyzz* acc, unsigned groups, unsigned parts,
                            unsigned stride) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * parts) return;
  const unsigned j = t % parts;
  if (acc != nullptr && j == 0) return;
  const auto s = j + stride < parts ? Ops<Curve>::add(in[t], in[t + stride]) : in[t];
  if (acc != nullptr)
    acc[t] = Ops<Curve>::add(acc[t], s);
  else
    out[t] = s;
}

// Step 4's launch: threads a block and buckets a thread (part_len 0: the rule above).
// DeviceOptions::reduce_block / reduce_part_len. The block size applies to the last window
// group's reduction only, the one nothing overlaps (the earlier groups' run on the side stream
// beside the next group's sort and accumulation, in blocks of kThreads). That one is
// latency-bound when few threads run: a G2 2^20 reduction (one group) is 20 windows x 4,096
// buckets / 16 = 5,120 threads, 20 blocks of 256 on 20 of the 132 SMs, 8 warps each; blocks of
// 32 spread it over every SM: G2 2^20 reduce phase 3.33 vs 4.19 ms in blocks of 256 on the
// H200. In every group the small blocks take the SMs the sort's kernels beside the first
// group's reduction wait for (G2 2^22 sort 2.4 -> 7.1 ms), hence the last group only
// (gpu/msm/DECISIONS.md #6).
struct ReduceConfig {
  unsigned block = kThreads;
  unsigned part_len = 0;
  bool scan = false;  // DeviceReduce::SuffixScan
};
constexpr unsigned reduce_block_default(G1Curve) {
  return kThreads;
}
constexpr unsigned reduce_block_default(G2Curve) {
  return 32;
}
// DeviceReduce::Auto per curve. G2 takes SuffixScan: measured on the H200, G2 2^22 98.13 ->
// 95.07 ms (reduce phase 7.1 -> 5.0; gpu/msm/DECISIONS.md #21). G1 keeps DoubleAdd although the
// scan measured faster there too (2^24 128.59 -> 127.86 ms): not measured at 2^26 / 2^27 (the
// pipeline's sizes), and its workspace grows (three part buffers instead of one).
constexpr DeviceReduce reduce_scheme_default(G1Curve) {
  return DeviceReduce::DoubleAdd;
}
constexpr DeviceReduce reduce_scheme_default(G2Curve) {
  return DeviceReduce::SuffixScan;
}
template <class Curve>
bool reduce_uses_scan(const DeviceOptions& o) {
  const DeviceReduce r = o.reduce != DeviceReduce::Auto ? o.reduce : reduce_scheme_default(Curve{});
  return r == DeviceReduce::SuffixScan;
}

// Step 4 for `groups` windows of 2^(c-1) buckets (bucket b's sum at items[start[b]] when
// end[b] > start[b]): out[w] = sum_k (k + 1) B_wk, in parts reduced in parallel, then a tree.
// part_sums: groups x parts XYZZ (at most part_cap; MsmPlan::part_cap), three times that with
// rc.scan (the parts' sums, then the scan's two buffers), read until the stream's work is done.
template <class Curve>
void reduce_windows(const typename Curve::Xyzz* items, const unsigned* start, const unsigned* end,
                    unsigned c, unsigned groups, typename Curve::Xyzz* out, const ReduceConfig& rc,
                    typename Curve::Xyzz* part_sums, std::size_t part_cap, cudaStream_t stream) {
  using Xyzz = typename Curve::Xyzz;
  const unsigned buckets = 1u << (c - 1);
  const std::size_t nb = std::size_t{groups} * buckets;
  const unsigned short_len =
      rc.scan ? reduce_part_short_scan(Curve{}, nb) : reduce_part_short(Curve{});
  const unsigned part_len = std::min(rc.part_len != 0      ? rc.part_len
                                     : nb <= kShortBuckets ? short_len
                                                           : kPartLong,
                                     buckets);
  const unsigned parts = buckets / part_len;
  const unsigned bt = rc.block;
  const auto grid = [bt](std::size_t n) { return static_cast<unsigned>((n + bt - 1) / bt); };
  const std::size_t cap = rc.scan ? part_cap / 3 : part_cap;  // per buffer
  const std::size_t total = std::size_t{groups} * parts;
  if (total > cap) throw std::logic_error("on_device: part sums past their workspace capacity");
  if (rc.scan) {
    Xyzz* scan_in = part_sums + cap;  // total x XYZZ each: the scan's ping-pong buffers
    Xyzz* scan_out = part_sums + 2 * cap;
    bucket_part_scan_kernel<Curve><<<grid(total), bt, 0, stream>>>(
        items, start, end, c, groups, parts, part_len, part_sums, scan_in);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    for (unsigned stride = 1; stride < parts; stride *= 2) {
      const bool last = 2 * stride >= parts;  // adds S_j to the part sums instead
      suffix_scan_step_kernel<Curve><<<grid(total), bt, 0, stream>>>(
          scan_in, scan_out, last ? part_sums : nullptr, groups, parts, stride);
      PRESTAGE_CUDA_CHECK_LAUNCH();
      std::swap(scan_in, scan_out);
    }
  } else {
    bucket_reduce_kernel<Curve>
        <<<grid(total), bt, 0, stream>>>(items, start, end, c, groups, parts, part_len, part_sums);
    PRESTAGE_CUDA_CHECK_LAUNCH();
  }
  for (unsigned half = parts / 2; half >= 1; half /= 2) {
    tree_kernel<Curve>
        <<<grid(std::size_t{groups} * half), bt, 0, stream>>>(part_sums, groups, parts, half);
    PRESTAGE_CUDA_CHECK_LAUNCH();
  }
  PRESTAGE_CUDA_CHECK(cudaMemcpy2DAsync(out, sizeof(Xyzz), part_sums, parts * sizeof(Xyzz),
                                        sizeof(Xyzz), groups, cudaMemcpyDeviceToDevice, stream));
}

}  // namespace

}  // namespace prestage::msm

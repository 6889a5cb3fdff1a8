// System: the device-memory layer (gpu/runtime/memory.hpp). Expectations: both allocators give
// usable memory and free it; an impossible allocation throws CudaError with out_of_memory() and
// leaves the context usable; a VramBallast leaves the requested free memory (within the
// allocation granularity, 64 MiB tolerance) and returns it on destruction; pinned host buffers
// round-trip data; CUDA_CHECK names the failing call.
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <vector>

#include "gpu/runtime/memory.hpp"

namespace g = prestage::gpu;

BOOST_AUTO_TEST_CASE(allocators_round_trip_data) {
  g::SyncAllocator sync;
  g::StreamOrderedAllocator pool;
  g::Stream stream;
  g::PinnedHostBuffer<uint32_t> host(1 << 20);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint32_t>(i * 2654435761u);
  for (g::DeviceAllocator* a :
       {static_cast<g::DeviceAllocator*>(&sync), static_cast<g::DeviceAllocator*>(&pool)}) {
    g::DeviceBuffer<uint32_t> d(*a, host.size(), stream);
    BOOST_TEST(d.bytes() == host.size() * 4);
    PRESTAGE_CUDA_CHECK(
        cudaMemcpyAsync(d.data(), host.data(), d.bytes(), cudaMemcpyHostToDevice, stream));
    std::vector<uint32_t> back(host.size(), 0);
    PRESTAGE_CUDA_CHECK(
        cudaMemcpyAsync(back.data(), d.data(), d.bytes(), cudaMemcpyDeviceToHost, stream));
    stream.synchronize();
    BOOST_TEST(std::memcmp(back.data(), host.data(), d.bytes()) == 0, a->name());
  }
}

BOOST_AUTO_TEST_CASE(out_of_memory_is_an_exception_and_not_sticky) {
  g::SyncAllocator sync;
  g::StreamOrderedAllocator pool;
  const std::size_t too_much = g::mem_info().total_bytes * 2;
  for (g::DeviceAllocator* a :
       {static_cast<g::DeviceAllocator*>(&sync), static_cast<g::DeviceAllocator*>(&pool)}) {
    bool threw = false;
    try {
      g::DeviceBuffer<char> d(*a, too_much);
    } catch (const g::CudaError& e) {
      threw = e.out_of_memory();
      BOOST_TEST_MESSAGE(e.what());
    }
    BOOST_TEST(threw, a->name() << " throws CudaError(out of memory)");
    g::DeviceBuffer<char> ok(*a, 1 << 20);  // the context still works
    PRESTAGE_CUDA_CHECK(cudaMemset(ok.data(), 1, ok.bytes()));
    PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
  }
}

BOOST_AUTO_TEST_CASE(ballast_leaves_the_requested_free_memory) {
  const std::size_t usable = std::size_t{8} << 30;  // make the card look like 8 GiB free
  const std::size_t free_before = g::mem_info().free_bytes;
  {
    g::VramBallast ballast(usable);
    const std::size_t free_now = g::mem_info().free_bytes;
    BOOST_TEST_MESSAGE("ballast " << ballast.held_bytes() << " B, free " << free_now << " B");
    const double diff = double(free_now) - double(usable);
    BOOST_TEST(std::abs(diff) < double(64 << 20));
  }
  const double back = double(g::mem_info().free_bytes) - double(free_before);
  BOOST_TEST(std::abs(back) < double(64 << 20));
}

BOOST_AUTO_TEST_CASE(cuda_check_names_the_call) {
  bool threw = false;
  try {
    PRESTAGE_CUDA_CHECK(cudaSetDevice(1 << 20));
  } catch (const g::CudaError& e) {
    threw = std::string(e.what()).find("cudaSetDevice") != std::string::npos;
  }
  BOOST_TEST(threw);
}

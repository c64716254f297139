// The GPU simulee simulates, as far as host code sizes launches from it: the
// cudaDeviceProp members programs read to choose a grid or a block
// (`prop.multiProcessorCount * 2` blocks), with the values `simulee exec`
// reports for its default sm_80 device (runtime/DeviceProperties.cpp uses
// these). The call-site reader folds them, so such a launch is the
// program's own on that device.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace simulee {

inline constexpr int kSimulatedMultiProcessors = 108;
inline constexpr int kSimulatedMaxThreadsPerMultiProcessor = 2048;
inline constexpr int kSimulatedMaxBlocksPerMultiProcessor = 32;
inline constexpr int kSimulatedSharedBytesPerMultiprocessor = 167936;
// What one block may opt into (cudaFuncAttributeMaxDynamicSharedMemorySize).
inline constexpr int kSimulatedSharedBytesPerBlockOptIn = 163 * 1024;
inline constexpr int kSimulatedRegistersPerBlock = 65536;
inline constexpr int kSimulatedComputeCapability = 80;

// How many blocks of `threadsPerBlock` threads (warps are allocated whole)
// using `sharedBytesPerBlock` of shared memory one multiprocessor holds at
// once: the occupancy queries' answer, and the most blocks per
// multiprocessor a cooperative launch (a grid-wide barrier) may have.
inline constexpr uint64_t simulatedResidentBlocksPerMultiprocessor(uint64_t threadsPerBlock,
                                                                   uint64_t sharedBytesPerBlock) {
  if (threadsPerBlock == 0 || threadsPerBlock > 1024)
    return 0;
  uint64_t threads = (threadsPerBlock + 31) / 32 * 32;
  uint64_t blocks = kSimulatedMaxThreadsPerMultiProcessor / threads;
  if (blocks > uint64_t(kSimulatedMaxBlocksPerMultiProcessor))
    blocks = kSimulatedMaxBlocksPerMultiProcessor;
  if (sharedBytesPerBlock && kSimulatedSharedBytesPerMultiprocessor / sharedBytesPerBlock < blocks)
    blocks = kSimulatedSharedBytesPerMultiprocessor / sharedBytesPerBlock;
  return blocks;
}

// A cudaDeviceProp member the simulated device fixes, by name; nullopt for
// the others (names, arrays, and members no launch is sized from).
inline std::optional<int64_t> simulatedDeviceProperty(std::string_view member) {
  if (member == "multiProcessorCount")
    return kSimulatedMultiProcessors;
  if (member == "maxThreadsPerMultiProcessor")
    return kSimulatedMaxThreadsPerMultiProcessor;
  if (member == "maxBlocksPerMultiProcessor")
    return kSimulatedMaxBlocksPerMultiProcessor;
  if (member == "sharedMemPerMultiprocessor")
    return kSimulatedSharedBytesPerMultiprocessor;
  if (member == "regsPerBlock" || member == "regsPerMultiprocessor")
    return kSimulatedRegistersPerBlock;
  if (member == "warpSize")
    return 32;
  if (member == "maxThreadsPerBlock")
    return 1024;
  if (member == "sharedMemPerBlock")
    return 48 * 1024;
  if (member == "sharedMemPerBlockOptin")
    return kSimulatedSharedBytesPerBlockOptIn;
  if (member == "major")
    return kSimulatedComputeCapability / 10;
  if (member == "minor")
    return kSimulatedComputeCapability % 10;
  return std::nullopt;
}

// A cudaDeviceAttr the simulated device fixes (the cudaDevAttr... name
// cudaDeviceGetAttribute is asked for), by the same values; nullopt for the
// others.
inline std::optional<int64_t> simulatedDeviceAttribute(std::string_view attribute) {
  static constexpr std::pair<std::string_view, std::string_view> kMembers[] = {
      {"cudaDevAttrMultiProcessorCount", "multiProcessorCount"},
      {"cudaDevAttrMaxThreadsPerMultiProcessor", "maxThreadsPerMultiProcessor"},
      {"cudaDevAttrMaxBlocksPerMultiprocessor", "maxBlocksPerMultiProcessor"},
      {"cudaDevAttrMaxSharedMemoryPerMultiprocessor", "sharedMemPerMultiprocessor"},
      {"cudaDevAttrMaxRegistersPerBlock", "regsPerBlock"},
      {"cudaDevAttrMaxRegistersPerMultiprocessor", "regsPerMultiprocessor"},
      {"cudaDevAttrWarpSize", "warpSize"},
      {"cudaDevAttrMaxThreadsPerBlock", "maxThreadsPerBlock"},
      {"cudaDevAttrMaxSharedMemoryPerBlock", "sharedMemPerBlock"},
      {"cudaDevAttrMaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin"},
      {"cudaDevAttrComputeCapabilityMajor", "major"},
      {"cudaDevAttrComputeCapabilityMinor", "minor"},
  };
  for (const auto &[name, member] : kMembers)
    if (name == attribute)
      return simulatedDeviceProperty(member);
  return std::nullopt;
}

} // namespace simulee

// The runtime's device memory (runtime/DeviceMemory.h): encoded device
// pointers, host-visible allocations, quarantine and written bytes.
#include "runtime/DeviceMemory.h"

#include "ir/PointerEncoding.h"
#include "ir/Program.h"

#include <gtest/gtest.h>

namespace simulee::runtime {
namespace {

const void *at(uintptr_t address) { return reinterpret_cast<const void *>(address); }

TEST(DeviceMemory, CudaMallocPointerIsTheEncodedPointerToItsBoundBuffer) {
  DeviceMemory memory;
  memory.allocate(AllocationKind::Device, 16, "");
  Allocation &second = memory.allocate(AllocationKind::Device, 100, "main.cu:7");
  uintptr_t address = second.address();
  EXPECT_TRUE(isDevicePointer(address));
  ir::DecodedPointer decoded = ir::decodePointer(address);
  EXPECT_EQ(decoded.buffer, ir::kFirstBoundBuffer + 1);
  EXPECT_EQ(decoded.offset, 0);
  AddressInfo inside = memory.find(at(address + 10));
  EXPECT_EQ(inside.allocation, &second);
  EXPECT_EQ(inside.offset, 10u);
  EXPECT_EQ(inside.bytes(), second.bytes.data() + 10);
  AddressInfo past = memory.find(at(address + 100));
  EXPECT_EQ(past.allocation, nullptr);
  EXPECT_TRUE(past.isDevicePointer);
  EXPECT_EQ(second.describe(), "allocation #2, 100 bytes, cudaMalloc at main.cu:7");
}

TEST(DeviceMemory, ManagedAndHostMemoryKeepHostAddresses) {
  DeviceMemory memory;
  Allocation &managed = memory.allocate(AllocationKind::Managed, 64, "");
  EXPECT_EQ(managed.address(), managed.start());
  EXPECT_FALSE(isDevicePointer(managed.address()));
  EXPECT_EQ(memory.find(managed.bytes.data() + 63).allocation, &managed);
  EXPECT_EQ(memory.find(managed.bytes.data() + 64).allocation, nullptr);
  int onStack = 0;
  EXPECT_EQ(memory.find(&onStack).allocation, nullptr);
}

TEST(DeviceMemory, FreedAllocationStaysFindableAsFreed) {
  DeviceMemory memory;
  Allocation &allocation = memory.allocate(AllocationKind::Device, 8, "");
  memory.release(allocation, "main.cu:9");
  AddressInfo info = memory.find(at(allocation.address()));
  ASSERT_EQ(info.allocation, &allocation);
  EXPECT_TRUE(info.allocation->freed);
  EXPECT_EQ(info.allocation->freeSite, "main.cu:9");
}

TEST(DeviceMemory, DeviceBytesRememberWhetherTheyWereWritten) {
  DeviceMemory memory;
  Allocation &device = memory.allocate(AllocationKind::Device, 200, "");
  EXPECT_EQ(device.firstUnwritten(0, 4), 0);
  device.markWritten(0, 130);
  EXPECT_EQ(device.firstUnwritten(0, 130), -1);
  EXPECT_EQ(device.firstUnwritten(128, 4), 130);
  Allocation &managed = memory.allocate(AllocationKind::Managed, 8, "");
  EXPECT_EQ(managed.firstUnwritten(0, 8), -1); // the host writes it unseen
}

} // namespace
} // namespace simulee::runtime

// simulee exec's device memory: every cudaMalloc / cudaMallocManaged /
// cudaMallocHost is a block of host memory the runtime owns and names
// ("allocation #3, 4096 bytes, cudaMalloc at main.cu:40"). Addresses map
// back to their allocation, freed allocations stay quarantined for a while so
// that a use after cudaFree is recognised, and cudaMalloc'd bytes remember
// whether anything has written them (a kernel reading never-written device
// memory is a finding).
//
// A cudaMalloc pointer is the interpreter's own encoded pointer to the
// allocation's bound buffer (ir/PointerEncoding.h, buffer ir::kFirstBoundBuffer
// + id - 1): the host cannot dereference it (it is no canonical address, as
// a GPU pointer is not host memory), host arithmetic on it moves its offset,
// and device pointers the program stores in device memory (arrays of
// pointers, linked structures, __device__ pointer variables) are valid
// pointers for every kernel. Managed and host-pinned memory, which the host
// dereferences, keep real addresses; kernel arguments into them are
// translated at launch. Host memory the program registered (cudaHostRegister)
// stays the program's: its allocation's bytes are what kernels see, loaded
// from the program's memory before each launch and stored back after it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace simulee::runtime {

// DeviceHeap: malloc or new in a kernel; it lives until a kernel frees it.
enum class AllocationKind : uint8_t { Device, Managed, Host, DeviceHeap };
const char *allocationFunction(AllocationKind kind); // "cudaMalloc", ...

struct Allocation {
  uint32_t id = 0; // 1-based, in allocation order ("allocation #3")
  AllocationKind kind = AllocationKind::Device;
  std::vector<uint8_t> bytes;
  std::string site; // where it was allocated ("main.cu:40"), or empty
  const char *function = nullptr; // the allocating call when not the kind's (cudaMallocArray)
  // cudaHostRegister: the program's own memory, of bytes.size() bytes.
  uint8_t *registered = nullptr;
  bool freed = false;
  std::string freeSite;
  // Device allocations only: one bit per byte, set once the host or a kernel
  // wrote it. Managed and host memory is written by the host directly, which
  // the runtime cannot see: always initialised.
  std::vector<uint64_t> written;
  uint64_t writtenBytes = 0; // bits set in `written`

  // What the program gets: an encoded device pointer, or the host address.
  uintptr_t address() const;
  bool hostVisible() const {
    return kind != AllocationKind::Device && kind != AllocationKind::DeviceHeap;
  }
  // The bytes the host reads and writes: the program's own when registered.
  uint8_t *hostBytes() { return registered ? registered : bytes.data(); }
  uintptr_t start() const {
    return reinterpret_cast<uintptr_t>(registered ? registered : bytes.data());
  }
  uint64_t sizeBytes() const { return bytes.size(); }
  bool tracksWrites() const { return !hostVisible(); }
  // Every byte written (or none tracked): no read of it can be uninitialized.
  bool fullyWritten() const { return !tracksWrites() || writtenBytes == bytes.size(); }
  void markWritten(uint64_t offset, uint64_t size);
  // The first byte of [offset, offset+size) never written, or -1.
  int64_t firstUnwritten(uint64_t offset, uint64_t size) const;
  // "allocation #3, 4096 bytes, cudaMalloc at main.cu:40"
  std::string describe() const;
};

// Where an address lies.
struct AddressInfo {
  Allocation *allocation = nullptr; // live or freed; null: no allocation
  uint64_t offset = 0;
  // The address is an encoded device pointer (whether or not its allocation
  // still exists): never host memory.
  bool isDevicePointer = false;
  uint8_t *bytes() const { return allocation->hostBytes() + offset; }
};

// Whether `address` is an encoded cudaMalloc pointer (no host address is).
bool isDevicePointer(uintptr_t address);

class DeviceMemory {
public:
  Allocation &allocate(AllocationKind kind, uint64_t sizeBytes, std::string site);
  // Marks the allocation freed; its memory is released later (quarantine).
  void release(Allocation &allocation, std::string site);
  // A freed allocation live again at its address, its bytes unwritten (a
  // CUDA graph's allocation node, which allocates the same address at every
  // launch); false once its memory is released for good.
  bool revive(Allocation &allocation);
  // The allocation holding `address` (one past the end counts only for
  // empty ranges: `sizeBytes` 0).
  AddressInfo find(const void *address) const;
  // The program's memory [start, start + sizeBytes) as host memory kernels
  // may use (cudaHostRegister); null when it overlaps a registered or
  // allocated range.
  Allocation *registerHost(uint8_t *start, uint64_t sizeBytes, std::string site);
  // Ends a registration (cudaHostUnregister); false when `start` begins none.
  bool unregisterHost(const void *start);
  // Registered memory around a launch: the program's bytes into the
  // allocation before it, the allocation's back after it.
  void loadRegistered();
  void storeRegistered();
  // By id (BoundMemory index id - 1); null once released for good.
  Allocation *byId(uint32_t id) const;
  // A device allocation released for good (its memory reused): what it was
  // and where it was freed ("allocation #3, 4 bytes, cudaMalloc at f.cu:9",
  // "f.cu:20"), so that a late second free still names it. Its id is never
  // given again (device pointers carry it); empty when unknown.
  std::pair<std::string, std::string> releasedDevice(uint32_t id) const;
  uint32_t allocationCount() const { return uint32_t(byId_.size()); }

private:
  std::map<uintptr_t, std::unique_ptr<Allocation>> byStart_; // host-visible ones
  std::vector<std::unique_ptr<Allocation>> devices_;         // cudaMalloc ones
  std::vector<Allocation *> byId_;
  std::vector<Allocation *> quarantine_; // freed, oldest first
  std::vector<Allocation *> registered_;  // live cudaHostRegister ranges
  // Ended registrations: kept (their ids stay unused), never found again,
  // since the program may reuse the addresses.
  std::vector<std::unique_ptr<Allocation>> unregistered_;
  std::map<uint32_t, std::pair<std::string, std::string>> releasedDevices_; // by id
  uint64_t quarantineBytes_ = 0;
  uint32_t nextId_ = 1;
};

} // namespace simulee::runtime

#include "runtime/DeviceMemory.h"

#include "ir/PointerEncoding.h"
#include "ir/Program.h"

#include <algorithm>
#include <bit>

namespace simulee::runtime {
namespace {

// Freed memory kept to recognise a use after cudaFree, as ASan's quarantine.
constexpr uint64_t kQuarantineBytes = uint64_t(256) << 20;

} // namespace

const char *allocationFunction(AllocationKind kind) {
  switch (kind) {
  case AllocationKind::Device:
    return "cudaMalloc";
  case AllocationKind::Managed:
    return "cudaMallocManaged";
  case AllocationKind::Host:
    return "cudaMallocHost";
  case AllocationKind::DeviceHeap:
    return "device malloc";
  }
  return "cudaMalloc";
}

bool isDevicePointer(uintptr_t address) {
  ir::DecodedPointer pointer = ir::decodePointer(address);
  return pointer.space == ir::PointerSpace::Global && !pointer.isNull &&
         pointer.buffer >= ir::kFirstBoundBuffer;
}

uintptr_t Allocation::address() const {
  if (hostVisible())
    return start();
  return ir::encodePointer(ir::PointerSpace::Global, ir::kFirstBoundBuffer + id - 1, 0);
}

void Allocation::markWritten(uint64_t offset, uint64_t size) {
  if (fullyWritten())
    return;
  uint64_t end = std::min<uint64_t>(offset + size, bytes.size());
  for (uint64_t i = offset; i < end;) {
    // The bits [i, min(end, next word)) of word i / 64.
    uint64_t to = std::min<uint64_t>(end, (i / 64 + 1) * 64);
    uint64_t width = to - i;
    uint64_t bits = (width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1) << (i % 64);
    uint64_t &word = written[i / 64];
    writtenBytes += uint64_t(std::popcount(bits & ~word));
    word |= bits;
    i = to;
  }
}

int64_t Allocation::firstUnwritten(uint64_t offset, uint64_t size) const {
  if (fullyWritten())
    return -1;
  uint64_t end = std::min<uint64_t>(offset + size, bytes.size());
  for (uint64_t i = offset; i < end; ++i)
    if (!(written[i / 64] >> (i % 64) & 1))
      return int64_t(i);
  return -1;
}

std::string Allocation::describe() const {
  std::string text = "allocation #" + std::to_string(id) + ", " + std::to_string(bytes.size()) +
                     " bytes, " + (function ? function : allocationFunction(kind));
  return site.empty() ? text : text + " at " + site;
}

Allocation &DeviceMemory::allocate(AllocationKind kind, uint64_t sizeBytes, std::string site) {
  auto allocation = std::make_unique<Allocation>();
  allocation->kind = kind;
  // Never a null data(), even for 0 bytes, so that every allocation has an
  // address of its own. More than the machine holds throws std::bad_alloc
  // before the allocation is numbered.
  allocation->bytes.reserve(std::max<uint64_t>(sizeBytes, 1));
  allocation->bytes.resize(sizeBytes);
  if (allocation->tracksWrites())
    allocation->written.assign((sizeBytes + 63) / 64, 0);
  allocation->id = nextId_++;
  allocation->site = std::move(site);
  Allocation &result = *allocation;
  byId_.push_back(&result);
  if (result.hostVisible())
    byStart_.emplace(result.start(), std::move(allocation));
  else
    devices_.push_back(std::move(allocation));
  return result;
}

void DeviceMemory::release(Allocation &allocation, std::string site) {
  allocation.freed = true;
  allocation.freeSite = std::move(site);
  quarantine_.push_back(&allocation);
  quarantineBytes_ += allocation.sizeBytes();
  while (quarantineBytes_ > kQuarantineBytes && !quarantine_.empty()) {
    Allocation *oldest = quarantine_.front();
    quarantine_.erase(quarantine_.begin());
    quarantineBytes_ -= oldest->sizeBytes();
    byId_[oldest->id - 1] = nullptr;
    if (oldest->hostVisible()) {
      byStart_.erase(oldest->start());
    } else {
      releasedDevices_[oldest->id] = {oldest->describe(), oldest->freeSite};
      std::erase_if(devices_,
                    [&](const std::unique_ptr<Allocation> &a) { return a.get() == oldest; });
    }
  }
}

bool DeviceMemory::revive(Allocation &allocation) {
  if (!allocation.freed)
    return true;
  auto queued = std::find(quarantine_.begin(), quarantine_.end(), &allocation);
  if (queued == quarantine_.end())
    return false;
  quarantine_.erase(queued);
  quarantineBytes_ -= allocation.sizeBytes();
  allocation.freed = false;
  allocation.freeSite.clear();
  if (allocation.tracksWrites()) {
    std::fill(allocation.written.begin(), allocation.written.end(), 0);
    allocation.writtenBytes = 0;
  }
  return true;
}

std::pair<std::string, std::string> DeviceMemory::releasedDevice(uint32_t id) const {
  auto it = releasedDevices_.find(id);
  return it == releasedDevices_.end() ? std::pair<std::string, std::string>{} : it->second;
}

AddressInfo DeviceMemory::find(const void *address) const {
  uintptr_t at = reinterpret_cast<uintptr_t>(address);
  if (isDevicePointer(at)) {
    ir::DecodedPointer pointer = ir::decodePointer(at);
    AddressInfo info;
    info.isDevicePointer = true;
    Allocation *allocation = byId(pointer.buffer - ir::kFirstBoundBuffer + 1);
    if (!allocation || pointer.offset < 0 ||
        uint64_t(pointer.offset) >= std::max<uint64_t>(allocation->sizeBytes(), 1))
      return info;
    info.allocation = allocation;
    info.offset = uint64_t(pointer.offset);
    return info;
  }
  auto it = byStart_.upper_bound(at);
  if (it == byStart_.begin())
    return {};
  --it;
  Allocation &allocation = *it->second;
  if (at - allocation.start() >= std::max<uint64_t>(allocation.sizeBytes(), 1))
    return {};
  return {&allocation, at - allocation.start()};
}

Allocation *DeviceMemory::registerHost(uint8_t *start, uint64_t sizeBytes, std::string site) {
  uintptr_t begin = reinterpret_cast<uintptr_t>(start), end = begin + sizeBytes;
  auto next = byStart_.lower_bound(begin);
  if (next != byStart_.end() && next->first < end)
    return nullptr;
  if (next != byStart_.begin() &&
      std::prev(next)->first + std::prev(next)->second->sizeBytes() > begin)
    return nullptr;
  auto allocation = std::make_unique<Allocation>();
  allocation->id = nextId_++;
  allocation->kind = AllocationKind::Host;
  allocation->function = "cudaHostRegister";
  allocation->bytes.assign(start, start + sizeBytes);
  allocation->registered = start;
  allocation->site = std::move(site);
  Allocation &result = *allocation;
  byId_.push_back(&result);
  registered_.push_back(&result);
  byStart_.emplace(begin, std::move(allocation));
  return &result;
}

bool DeviceMemory::unregisterHost(const void *start) {
  auto it = byStart_.find(reinterpret_cast<uintptr_t>(start));
  if (it == byStart_.end() || !it->second->registered)
    return false;
  Allocation *allocation = it->second.get();
  std::erase(registered_, allocation);
  byId_[allocation->id - 1] = nullptr;
  allocation->freed = true;
  unregistered_.push_back(std::move(it->second));
  byStart_.erase(it);
  return true;
}

void DeviceMemory::loadRegistered() {
  for (Allocation *allocation : registered_)
    std::copy_n(allocation->registered, allocation->bytes.size(), allocation->bytes.data());
}

void DeviceMemory::storeRegistered() {
  for (Allocation *allocation : registered_)
    std::copy_n(allocation->bytes.data(), allocation->bytes.size(), allocation->registered);
}

Allocation *DeviceMemory::byId(uint32_t id) const {
  return id >= 1 && id <= byId_.size() ? byId_[id - 1] : nullptr;
}

} // namespace simulee::runtime

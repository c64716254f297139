// Cooperative groups for simulee: thread blocks, static and dynamic warp tiles
// and coalesced groups, built on the barriers and warp intrinsics of
// simulee_cuda.h. Grid-wide and multi-grid groups are not provided.
#ifndef SIMULEE_COOPERATIVE_GROUPS_H
#define SIMULEE_COOPERATIVE_GROUPS_H
#pragma clang system_header // like the toolkit's headers: no warnings, relaxed overloading rules

#include "simulee_cuda.h"

namespace cooperative_groups {
namespace __simulee {
__SIMULEE_DEV__ unsigned linearThreadId() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__SIMULEE_DEV__ unsigned blockThreads() { return blockDim.x * blockDim.y * blockDim.z; }
__SIMULEE_DEV__ unsigned laneId() { return linearThreadId() & 31u; }
// The lanes of the warp that belong to the caller's tile of `tileSize`
// (a power of two no larger than 32).
__SIMULEE_DEV__ unsigned tileMask(unsigned tileSize) {
  if (tileSize >= 32)
    return 0xffffffffu;
  unsigned base = laneId() & ~(tileSize - 1u);
  return ((1u << tileSize) - 1u) << base;
}
} // namespace __simulee

// A set of threads that can synchronise; either a whole block (tileSize 0)
// or a warp tile of tileSize threads.
class thread_group {
public:
  __SIMULEE_MEMBER__ void sync() const {
    if (tileSize_ == 0)
      __syncthreads();
    else
      __syncwarp(__simulee::tileMask(tileSize_));
  }
  __SIMULEE_MEMBER__ unsigned long long size() const {
    return tileSize_ == 0 ? __simulee::blockThreads() : tileSize_;
  }
  __SIMULEE_MEMBER__ unsigned long long num_threads() const { return size(); }
  __SIMULEE_MEMBER__ unsigned long long thread_rank() const {
    return tileSize_ == 0 ? __simulee::linearThreadId()
                          : __simulee::linearThreadId() & (tileSize_ - 1u);
  }
  __SIMULEE_MEMBER__ unsigned meta_group_rank() const {
    return tileSize_ == 0 ? 0 : __simulee::linearThreadId() / tileSize_;
  }
  __SIMULEE_MEMBER__ unsigned meta_group_size() const {
    return tileSize_ == 0 ? 1 : (__simulee::blockThreads() + tileSize_ - 1) / tileSize_;
  }

protected:
  __SIMULEE_MEMBER__ explicit thread_group(unsigned tileSize) : tileSize_(tileSize) {}
  unsigned tileSize_;
};

class thread_block : public thread_group {
public:
  __SIMULEE_MEMBER__ thread_block() : thread_group(0) {}
  __SIMULEE_MEMBER__ void sync() const { __syncthreads(); }
  __SIMULEE_MEMBER__ unsigned long long size() const { return __simulee::blockThreads(); }
  __SIMULEE_MEMBER__ unsigned long long num_threads() const { return size(); }
  __SIMULEE_MEMBER__ unsigned long long thread_rank() const {
    return __simulee::linearThreadId();
  }
  __SIMULEE_MEMBER__ dim3 group_index() const { return dim3(blockIdx); }
  __SIMULEE_MEMBER__ dim3 thread_index() const { return dim3(threadIdx); }
  __SIMULEE_MEMBER__ dim3 group_dim() const { return dim3(blockDim); }
  __SIMULEE_MEMBER__ dim3 dim_threads() const { return dim3(blockDim); }
};

__SIMULEE_DEV__ thread_block this_thread_block() { return thread_block(); }

// A statically sized tile of a block: Size consecutive threads of one warp.
template <unsigned Size, class Parent = void> class thread_block_tile : public thread_group {
  static_assert(Size > 0 && Size <= 32 && (Size & (Size - 1)) == 0,
                "tile size must be a power of two no larger than 32");

public:
  __SIMULEE_MEMBER__ thread_block_tile() : thread_group(Size) {}
  template <class P>
  __SIMULEE_MEMBER__ thread_block_tile(const thread_block_tile<Size, P> &) : thread_group(Size) {}
  __SIMULEE_MEMBER__ void sync() const { __syncwarp(mask()); }
  __SIMULEE_MEMBER__ unsigned long long size() const { return Size; }
  __SIMULEE_MEMBER__ unsigned long long num_threads() const { return Size; }
  __SIMULEE_MEMBER__ unsigned long long thread_rank() const {
    return __simulee::linearThreadId() & (Size - 1u);
  }
  __SIMULEE_MEMBER__ unsigned meta_group_rank() const {
    return __simulee::linearThreadId() / Size;
  }
  __SIMULEE_MEMBER__ unsigned meta_group_size() const {
    return (__simulee::blockThreads() + Size - 1) / Size;
  }
  template <class T> __SIMULEE_MEMBER__ T shfl(T value, int srcRank) const {
    return __shfl_sync(mask(), value, srcRank, Size);
  }
  template <class T> __SIMULEE_MEMBER__ T shfl_down(T value, unsigned delta) const {
    return __shfl_down_sync(mask(), value, delta, Size);
  }
  template <class T> __SIMULEE_MEMBER__ T shfl_up(T value, unsigned delta) const {
    return __shfl_up_sync(mask(), value, delta, Size);
  }
  template <class T> __SIMULEE_MEMBER__ T shfl_xor(T value, unsigned laneMask) const {
    return __shfl_xor_sync(mask(), value, (int)laneMask, Size);
  }
  __SIMULEE_MEMBER__ int any(int predicate) const { return __any_sync(mask(), predicate); }
  __SIMULEE_MEMBER__ int all(int predicate) const { return __all_sync(mask(), predicate); }
  // Bit i stands for the tile's thread of rank i.
  __SIMULEE_MEMBER__ unsigned ballot(int predicate) const {
    return __ballot_sync(mask(), predicate) >> (__simulee::laneId() & ~(Size - 1u));
  }

private:
  __SIMULEE_MEMBER__ unsigned mask() const { return __simulee::tileMask(Size); }
};

template <unsigned Size, class Parent>
__SIMULEE_DEV__ thread_block_tile<Size, Parent> tiled_partition(const Parent &) {
  return thread_block_tile<Size, Parent>();
}

// Dynamic partition: the tile size is a run-time power of two <= 32.
__SIMULEE_DEV__ thread_group tiled_partition(const thread_group &, unsigned tileSize) {
  struct tile : thread_group {
    __SIMULEE_MEMBER__ explicit tile(unsigned size) : thread_group(size) {}
  };
  return tile(tileSize >= 32 ? 32 : tileSize);
}

// The threads of the warp that are active where it is created.
class coalesced_group {
public:
  __SIMULEE_MEMBER__ coalesced_group() : mask_(__activemask()) {}
  __SIMULEE_MEMBER__ void sync() const { __syncwarp(mask_); }
  __SIMULEE_MEMBER__ unsigned long long size() const { return __popc(mask_); }
  __SIMULEE_MEMBER__ unsigned long long num_threads() const { return size(); }
  __SIMULEE_MEMBER__ unsigned long long thread_rank() const {
    return __popc(mask_ & ((1u << __simulee::laneId()) - 1u));
  }
  __SIMULEE_MEMBER__ int any(int predicate) const { return __any_sync(mask_, predicate); }
  __SIMULEE_MEMBER__ int all(int predicate) const { return __all_sync(mask_, predicate); }
  __SIMULEE_MEMBER__ unsigned ballot(int predicate) const {
    return __ballot_sync(mask_, predicate);
  }

private:
  unsigned mask_;
};

__SIMULEE_DEV__ coalesced_group coalesced_threads() { return coalesced_group(); }

template <class Group> __SIMULEE_DEV__ void sync(const Group &group) { group.sync(); }

// cooperative_groups/reduce.h, for tiles: a butterfly over the tile's lanes.
template <class T> struct plus {
  __SIMULEE_MEMBER__ T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  __SIMULEE_MEMBER__ T operator()(const T &a, const T &b) const { return a < b ? a : b; }
};
template <class T> struct greater {
  __SIMULEE_MEMBER__ T operator()(const T &a, const T &b) const { return a > b ? a : b; }
};
template <class T> struct bit_and {
  __SIMULEE_MEMBER__ T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  __SIMULEE_MEMBER__ T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  __SIMULEE_MEMBER__ T operator()(const T &a, const T &b) const { return a ^ b; }
};
template <unsigned Size, class Parent, class T, class Op>
__SIMULEE_DEV__ T reduce(const thread_block_tile<Size, Parent> &tile, T value, Op op) {
  for (unsigned offset = Size / 2; offset > 0; offset /= 2)
    value = op(value, tile.shfl_xor(value, offset));
  return value;
}
} // namespace cooperative_groups

#endif // SIMULEE_COOPERATIVE_GROUPS_H

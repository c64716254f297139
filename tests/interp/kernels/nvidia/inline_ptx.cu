// Inline PTX as CUDA code writes it; every result is checked on the host.
#include <cstdint>

__global__ void specialRegisters(unsigned *lane, unsigned *lanemaskLt) {
  unsigned id, mask;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  lane[i] = id;
  lanemaskLt[i] = mask;
}

// out[8*i + k]: bfe.u32, bfe.s32, bfi, prmt, lop3, shf.l.wrap, brev, popc+clz
__global__ void bitOps(const unsigned *a, const unsigned *b, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], r[8];
  unsigned pos = y & 31, len = (y >> 5) & 31;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"(x), "r"(pos), "r"(len));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(x), "r"(pos), "r"(len));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r[2]) : "r"(y), "r"(x), "r"(pos), "r"(len));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r[3]) : "r"(x), "r"(y), "r"(y & 0xffff));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r[4]) : "r"(x), "r"(y), "r"(x + y));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r[5]) : "r"(x), "r"(y), "r"(pos));
  asm("brev.b32 %0, %1;" : "=r"(r[6]) : "r"(x));
  asm("{\n\t.reg .u32 t0, t1;\n\tpopc.b32 t0, %1;\n\tclz.b32 t1, %1;\n\tmad.lo.u32 %0, t1, 256, t0;\n\t}"
      : "=r"(r[7]) : "r"(x));
  for (int k = 0; k < 8; ++k)
    out[8 * i + k] = r[k];
}

// Warp sum through shfl.sync.down with the in-range predicate, as CUB does it.
__global__ void shuffleSum(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[i];
  for (int offset = 1; offset < 32; offset *= 2) {
    asm volatile("{\n\t.reg .s32 r0;\n\t.reg .pred p;\n\t"
                 "shfl.sync.down.b32 r0|p, %1, %2, 31, 0xffffffff;\n\t"
                 "@p add.s32 r0, r0, %1;\n\t"
                 "mov.s32 %0, r0;\n\t}"
                 : "=r"(value) : "r"(value), "r"(offset));
  }
  out[i] = value;
}

// 64-bit addition as two 32-bit halves chained through the carry flag, and
// a 32x32->64 multiply with mul.wide.
__global__ void carryChain(const unsigned long long *a, const unsigned long long *b,
                           unsigned long long *sum, unsigned long long *product) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned alo = unsigned(a[i]), ahi = unsigned(a[i] >> 32), blo = unsigned(b[i]), bhi = unsigned(b[i] >> 32);
  unsigned lo, hi;
  asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi) : "r"(alo), "r"(blo), "r"(ahi), "r"(bhi));
  sum[i] = (unsigned long long)hi << 32 | lo;
  unsigned long long wide;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(alo), "r"(blo));
  product[i] = wide;
}

// Votes, matches, a guarded store, memory with qualifiers and atomics.
__global__ void warpAndMemory(const int *in, unsigned *ballot, unsigned *match, int *copy, int *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value;
  asm volatile("ld.global.nc.s32 %0, [%1];" : "=r"(value) : "l"(in + i));
  unsigned votes, peers;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.s32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(votes) : "r"(value));
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(peers) : "r"(value & 3));
  // The older spelling CUB writes (vote.MODE.sync) votes the same.
  unsigned votesOldSpelling;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.s32 p, %1, 0;\n\tvote.ballot.sync.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(votesOldSpelling) : "r"(value));
  ballot[i] = votes == votesOldSpelling ? votes : 0xdeadbeefu;
  match[i] = peers;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\t@p st.global.volatile.s32 [%0], %1;\n\t}"
               :: "l"(copy + i), "r"(value) : "memory");
  asm volatile("red.global.add.s32 [%0], %1;" :: "l"(total), "r"(value) : "memory");
  asm volatile("membar.gl;" ::: "memory");
}

// out[6*i + k]: prmt.b32 in modes f4e, b4e, rc8, ecl, ecr, rc16 on
// a = 0x03020100, b = 0x07060504 (each byte holds its own index) with c = sel[i].
__global__ void prmtModes(const unsigned *sel, unsigned *out) {
  int i = threadIdx.x;
  unsigned a = 0x03020100u, b = 0x07060504u, c = sel[i], r[6];
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
  for (int k = 0; k < 6; ++k)
    out[6 * i + k] = r[k];
}

// bar.red on barrier 0: count[i] = threads with an odd value, all/any as 0/1.
__global__ void barrierReductions(const unsigned *v, unsigned *count, unsigned *all, unsigned *any) {
  int i = threadIdx.x;
  unsigned n, a, o;
  asm volatile("{\n\t.reg .pred p, q, r;\n\tsetp.ne.u32 p, %3, 0;\n\t"
               "bar.red.popc.u32 %0, 0, p;\n\tbar.red.and.pred q, 0, p;\n\t"
               "bar.red.or.pred r, 0, !p;\n\tselp.u32 %1, 1, 0, q;\n\tselp.u32 %2, 1, 0, r;\n\t}"
               : "=r"(n), "=r"(a), "=r"(o) : "r"(v[i] & 1));
  count[i] = n;
  all[i] = a;
  any[i] = o;
}

// Consumers first: warps 0-1 wait at named barrier 1 (bar.sync 1, 128) for
// warps 2-3, which write the stage and arrive (bar.arrive) without waiting.
// The consumers read what the producers wrote only if they really waited.
__global__ void namedBarrierConsumersFirst(const float *in, float *out) {
  __shared__ float stage[64];
  unsigned t = threadIdx.x;
  if (t >= 64) {
    stage[t - 64] = in[t - 64] + 1.0f;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
    return;
  }
  asm volatile("bar.sync 1, 128;" ::: "memory");
  out[t] = stage[63 - t];
}

// The same hand-off through CUDA's intrinsic (llvm.nvvm.barrier.sync.cnt):
// every warp syncs at barrier 5 for 128 threads.
__global__ void namedBarrierIntrinsic(const float *in, float *out) {
  __shared__ float stage[64];
  unsigned t = threadIdx.x;
  if (t >= 64)
    stage[t - 64] = in[t - 64] * 3.0f;
  __barrier_sync_count(5, 128);
  if (t < 64)
    out[t] = stage[63 - t];
}

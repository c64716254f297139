// cuBLAS under `simulee exec`: the routines ir/device/cublas_api.h declares,
// carried out on the host over the simulated device's memory, in the order
// of the handle's stream (a capturing stream records each as a node of its
// graph). Every operand is checked as a copy's range is: inside one live
// allocation kernels may use, else a host finding and an error status. An
// operand the routine reads whose bytes nothing wrote is a host finding, as
// a kernel's read of them is; what it writes counts as written. Products are
// computed in the compute type's precision (Eigen); their sums may round
// otherwise than a GPU's, as two GPUs' do.
#define __SIMULEE_NVIDIA_HEADERS__ 1 // cublas_api.h on NVIDIA's own runtime headers
#include "ir/device/cublas_api.h"

#include "evo/HalfFloat.h"
#include "runtime/LiveObjects.h"
#include "runtime/Runtime.h"
#include "runtime/Signals.h"
#include "runtime/StreamCapture.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

using simulee::runtime::AddressInfo;
using simulee::runtime::Runtime;

#define CALLER __builtin_return_address(0)

// What a handle holds: settings only (the simulated device needs no
// workspace).
struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointerMode = CUBLAS_POINTER_MODE_HOST;
  cublasAtomicsMode_t atomicsMode = CUBLAS_ATOMICS_NOT_ALLOWED;
  cublasMath_t mathMode = CUBLAS_DEFAULT_MATH;
};

namespace {

simulee::runtime::LiveObjects<cublasContext> handles;

bool isLive(const cublasContext *handle) { return handles.contains(handle); }

// The bytes of one element of `type`; 0 for a type simulee does not compute in.
unsigned elementBytes(cudaDataType type) {
  switch (type) {
  case CUDA_R_8I:
    return 1;
  case CUDA_R_16F:
  case CUDA_R_16BF:
    return 2;
  case CUDA_R_32F:
  case CUDA_R_32I:
    return 4;
  case CUDA_R_64F:
    return 8;
  default:
    return 0;
  }
}

double load(const uint8_t *at, cudaDataType type) {
  switch (type) {
  case CUDA_R_8I:
    return double(int8_t(*at));
  case CUDA_R_16F: {
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    return simulee::evo::fromHalfBits(bits);
  }
  case CUDA_R_16BF: {
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    uint32_t wide = uint32_t(bits) << 16;
    float value;
    std::memcpy(&value, &wide, 4);
    return value;
  }
  case CUDA_R_32F: {
    float value;
    std::memcpy(&value, at, 4);
    return value;
  }
  case CUDA_R_32I: {
    int32_t value;
    std::memcpy(&value, at, 4);
    return value;
  }
  default: {
    double value;
    std::memcpy(&value, at, 8);
    return value;
  }
  }
}

void store(uint8_t *at, cudaDataType type, double value) {
  switch (type) {
  case CUDA_R_8I: {
    double clamped = std::clamp(std::nearbyint(value), -128.0, 127.0);
    *at = uint8_t(int8_t(std::isnan(clamped) ? 0 : clamped));
    return;
  }
  case CUDA_R_16F: {
    uint16_t bits = simulee::evo::toHalfBits(float(value));
    std::memcpy(at, &bits, 2);
    return;
  }
  case CUDA_R_16BF: {
    uint16_t bits = simulee::evo::toBfloat16Bits(float(value));
    std::memcpy(at, &bits, 2);
    return;
  }
  case CUDA_R_32F: {
    float narrow = float(value);
    std::memcpy(at, &narrow, 4);
    return;
  }
  case CUDA_R_32I: {
    double clamped = std::clamp(std::nearbyint(value), -2147483648.0, 2147483647.0);
    int32_t narrow = std::isnan(clamped) ? 0 : int32_t(clamped);
    std::memcpy(at, &narrow, 4);
    return;
  }
  default:
    std::memcpy(at, &value, 8);
  }
}

template <class T> constexpr cudaDataType typeOf() {
  return std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
}

std::string number(int64_t value) { return std::to_string(value); }

// One routine's work as it runs: the operands it resolved, and what it wrote,
// marked written once the work is done.
class Call {
public:
  Call(const char *function, const void *site) : function_(function), site_(site) {}

  // A host finding of this call.
  void finding(const std::string &message) const {
    Runtime::get().hostFinding(function_, site_, message);
  }

  // `cols` columns of `rows` elements of `bytes` each, `ld` elements apart,
  // from `pointer` (a vector: one row, its increment apart): their first
  // byte, or null after a finding. A read of bytes nothing wrote is a
  // finding too, once per operand.
  uint8_t *operand(const void *pointer, int64_t rows, int64_t cols, int64_t ld, unsigned bytes,
                   const std::string &what, bool reads, bool writes) {
    uint64_t span = 0;
    if (rows > 0 && cols > 0 &&
        (__builtin_mul_overflow(uint64_t(cols - 1), uint64_t(ld), &span) ||
         __builtin_add_overflow(span, uint64_t(rows), &span) ||
         __builtin_mul_overflow(span, uint64_t(bytes), &span))) {
      finding(what + " spans more bytes than any allocation has");
      return nullptr;
    }
    AddressInfo info = Runtime::get().libraryMemory(pointer, span, function_, what, site_);
    if (!info.allocation)
      return nullptr;
    uint64_t columnBytes = uint64_t(rows) * bytes, stride = uint64_t(ld) * bytes;
    if (reads && !info.allocation->fullyWritten())
      for (int64_t c = 0; c < cols; ++c)
        if (int64_t unwritten =
                info.allocation->firstUnwritten(info.offset + c * stride, columnBytes);
            unwritten >= 0) {
          finding("reads " + what + " before anything wrote it: byte " + number(unwritten) +
                  " of " + info.allocation->describe() + " was never written");
          break;
        }
    if (writes)
      written_.push_back({info, columnBytes, stride, cols});
    return info.bytes();
  }

  // The operands written are, now.
  void done() const {
    for (const Written &w : written_)
      for (int64_t c = 0; c < w.cols; ++c)
        w.info.allocation->markWritten(w.info.offset + c * w.stride, w.columnBytes);
  }

private:
  struct Written {
    AddressInfo info;
    uint64_t columnBytes, stride;
    int64_t cols;
  };
  const char *function_;
  const void *site_;
  std::vector<Written> written_;
};

// alpha, beta: read from host memory when the call is made, from device
// memory when the routine runs (the handle's pointer mode).
class Scalar {
public:
  Scalar(const cublasContext *handle, const void *pointer, cudaDataType type)
      : pointer_(pointer), type_(type),
        onDevice_(isLive(handle) && handle->pointerMode == CUBLAS_POINTER_MODE_DEVICE),
        unreadable_(!onDevice_ && pointer &&
                    simulee::runtime::isDevicePointer(reinterpret_cast<uintptr_t>(pointer))) {
    if (!onDevice_ && pointer && !unreadable_)
      value_ = load(static_cast<const uint8_t *>(pointer), type);
  }

  std::optional<double> value(Call &call, const char *what) const {
    if (!pointer_) {
      call.finding(std::string(what) + " is a null pointer");
      return std::nullopt;
    }
    if (unreadable_) {
      call.finding(std::string(what) + " points to device memory while the handle's pointer "
                                       "mode is CUBLAS_POINTER_MODE_HOST");
      return std::nullopt;
    }
    if (!onDevice_)
      return value_;
    const uint8_t *bytes = call.operand(pointer_, 1, 1, 1, elementBytes(type_), what, true, false);
    if (!bytes)
      return std::nullopt;
    return load(bytes, type_);
  }

private:
  const void *pointer_;
  cudaDataType type_;
  bool onDevice_;
  bool unreadable_; // a device pointer in host pointer mode
  double value_ = 0;
};

// Where a routine writes a result (dot, nrm2, ...): host memory, or device
// memory in device pointer mode.
bool putResult(Call &call, const cublasContext *handle, void *result, const void *value,
               unsigned bytes) {
  if (!result) {
    call.finding("its result pointer is null");
    return false;
  }
  if (handle->pointerMode == CUBLAS_POINTER_MODE_HOST) {
    if (simulee::runtime::isDevicePointer(reinterpret_cast<uintptr_t>(result))) {
      call.finding("its result points to device memory while the handle's pointer mode is "
                   "CUBLAS_POINTER_MODE_HOST");
      return false;
    }
    std::memcpy(result, value, bytes);
    return true;
  }
  uint8_t *at = call.operand(result, 1, 1, 1, bytes, "its result", false, true);
  if (at)
    std::memcpy(at, value, bytes);
  return at != nullptr;
}

using Work = std::function<cublasStatus_t(Call &)>;

// Runs a routine on its handle's stream: now, or when the graph a capturing
// stream records it into runs.
cublasStatus_t run(const cublasContext *handle, const char *function, const void *site, Work work) {
  if (!isLive(handle)) {
    Runtime::get().hostFinding(function, site,
                               handle ? "its handle was destroyed (cublasDestroy)"
                                      : "its handle is null (cublasCreate makes one)");
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  // The routine, its writes marked once it succeeded; nothing after a failed
  // device assert left the context unusable.
  auto execute = [=]() -> cublasStatus_t {
    if (Runtime::get().stickyError())
      return CUBLAS_STATUS_EXECUTION_FAILED;
    simulee::runtime::RuntimeOperation operation(function, site);
    Call call(function, site);
    cublasStatus_t status = work(call);
    if (status == CUBLAS_STATUS_SUCCESS)
      call.done();
    return status;
  };
  simulee::runtime::StreamWork streamWork = [=] {
    if (int sticky = Runtime::get().stickyError())
      return cudaError_t(sticky);
    return execute() == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
  };
  if (std::optional<cudaError_t> captured =
          simulee::runtime::captureWork(handle->stream, cudaGraphNodeTypeKernel, streamWork))
    return *captured == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
  return execute();
}

// An argument cuBLAS refuses (CUBLAS_STATUS_INVALID_VALUE): a finding, since
// a program that does not check the status computes on garbage.
cublasStatus_t invalid(const char *function, const void *site, const std::string &why) {
  Runtime::get().hostFinding(function, site, why + ": CUBLAS_STATUS_INVALID_VALUE");
  return CUBLAS_STATUS_INVALID_VALUE;
}

bool validOperation(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

// Where element (i, j) of op(M) lies in column-major M, `ld` elements apart.
int64_t elementIndex(cublasOperation_t op, int64_t i, int64_t j, int64_t ld) {
  return op == CUBLAS_OP_N ? i + j * ld : j + i * ld;
}

// What cuBLAS says of an operation none of N, T, C.
constexpr const char *kInvalidOperation =
    "an operation that is none of CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C";

// The i-th element of a vector of n with increment inc (a negative one walks
// it backwards from its far end, as BLAS does).
int64_t at(int64_t i, int64_t n, int64_t inc) { return inc >= 0 ? i * inc : (n - 1 - i) * -inc; }

// ---- Level 3 ----------------------------------------------------------------

struct GemmShape {
  cublasOperation_t transa, transb;
  int m, n, k, lda, ldb, ldc;
  cudaDataType a, b, c;
  bool doubleCompute; // else float
};

// Why cuBLAS refuses a GEMM's shape; empty when it does not.
std::string gemmProblem(const GemmShape &s) {
  if (!validOperation(s.transa) || !validOperation(s.transb))
    return kInvalidOperation;
  if (s.m < 0 || s.n < 0 || s.k < 0)
    return "a negative size (m " + number(s.m) + ", n " + number(s.n) + ", k " + number(s.k) + ")";
  int rowsA = s.transa == CUBLAS_OP_N ? s.m : s.k, rowsB = s.transb == CUBLAS_OP_N ? s.k : s.n;
  if (s.lda < std::max(1, rowsA))
    return "lda (" + number(s.lda) + ") is less than the rows of A (" + number(rowsA) + ")";
  if (s.ldb < std::max(1, rowsB))
    return "ldb (" + number(s.ldb) + ") is less than the rows of B (" + number(rowsB) + ")";
  if (s.ldc < std::max(1, s.m))
    return "ldc (" + number(s.ldc) + ") is less than the rows of C (" + number(s.m) + ")";
  return "";
}

template <class Acc>
void gemmProduct(const GemmShape &s, const uint8_t *A, const uint8_t *B, uint8_t *C, double alpha,
                 double beta) {
  using Matrix = Eigen::Matrix<Acc, Eigen::Dynamic, Eigen::Dynamic>;
  unsigned ea = elementBytes(s.a), eb = elementBytes(s.b), ec = elementBytes(s.c);
  Matrix product = Matrix::Zero(s.m, s.n);
  if (A && B) {
    Matrix a(s.m, s.k), b(s.k, s.n);
    for (int64_t j = 0; j < s.k; ++j)
      for (int64_t i = 0; i < s.m; ++i)
        a(i, j) = Acc(load(A + elementIndex(s.transa, i, j, s.lda) * ea, s.a));
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t i = 0; i < s.k; ++i)
        b(i, j) = Acc(load(B + elementIndex(s.transb, i, j, s.ldb) * eb, s.b));
    product.noalias() = a * b;
  }
  for (int64_t j = 0; j < s.n; ++j)
    for (int64_t i = 0; i < s.m; ++i) {
      uint8_t *c = C + (i + j * s.ldc) * ec;
      // beta 0: C is not read (it may hold anything, NaN included).
      Acc value = Acc(alpha) * product(i, j);
      if (beta != 0)
        value += Acc(beta) * Acc(load(c, s.c));
      store(c, s.c, double(value));
    }
}

// The pointers of a batch: strided from one base, or read from a device
// array of pointers.
struct Batch {
  const void *base;            // strided: the first matrix
  long long stride = 0;        // in elements
  const void *array = nullptr; // batched: the device array of pointers
};

const void *nth(Call &call, const Batch &batch, int index, int count, unsigned bytes,
                const char *arrayName, bool &failed) {
  if (!batch.array)
    return static_cast<const uint8_t *>(batch.base) + int64_t(index) * batch.stride * bytes;
  const uint8_t *pointers = call.operand(batch.array, 1, count, 1, 8, arrayName, index == 0, false);
  if (!pointers) {
    failed = true;
    return nullptr;
  }
  uint64_t value;
  std::memcpy(&value, pointers + 8 * index, 8);
  return reinterpret_cast<const void *>(value);
}

cublasStatus_t gemm(const cublasContext *handle, const char *function, const void *site,
                    GemmShape s, Scalar alpha, Scalar beta, Batch a, Batch b, Batch c,
                    int batchCount) {
  if (std::string problem = gemmProblem(s); !problem.empty())
    return invalid(function, site, problem);
  if (batchCount < 0)
    return invalid(function, site, "a negative batch count (" + number(batchCount) + ")");
  for (cudaDataType type : {s.a, s.b, s.c})
    if (!elementBytes(type))
      Runtime::get().unsupported(
          (std::string(function) + " with data type " + number(int(type))).c_str());
  return run(handle, function, site, [=](Call &call) {
    if (s.m == 0 || s.n == 0 || batchCount == 0)
      return CUBLAS_STATUS_SUCCESS;
    std::optional<double> alphaValue = alpha.value(call, "alpha"),
                          betaValue = beta.value(call, "beta");
    if (!alphaValue || !betaValue)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    bool usesAB = *alphaValue != 0 && s.k > 0;
    int rowsA = s.transa == CUBLAS_OP_N ? s.m : s.k, colsA = s.transa == CUBLAS_OP_N ? s.k : s.m;
    int rowsB = s.transb == CUBLAS_OP_N ? s.k : s.n, colsB = s.transb == CUBLAS_OP_N ? s.n : s.k;
    for (int i = 0; i < batchCount; ++i) {
      std::string suffix = batchCount > 1 ? " of batch " + number(i) : "";
      bool failed = false;
      const void *pa =
          usesAB ? nth(call, a, i, batchCount, elementBytes(s.a), "Aarray", failed) : nullptr;
      const void *pb =
          usesAB ? nth(call, b, i, batchCount, elementBytes(s.b), "Barray", failed) : nullptr;
      const void *pc = nth(call, c, i, batchCount, elementBytes(s.c), "Carray", failed);
      if (failed)
        return CUBLAS_STATUS_EXECUTION_FAILED;
      // One finding a call: the first operand that fails ends it.
      const uint8_t *A = nullptr, *B = nullptr;
      if (usesAB && (!(A = call.operand(pa, rowsA, colsA, s.lda, elementBytes(s.a),
                                        "matrix A" + suffix, true, false)) ||
                     !(B = call.operand(pb, rowsB, colsB, s.ldb, elementBytes(s.b),
                                        "matrix B" + suffix, true, false))))
        return CUBLAS_STATUS_EXECUTION_FAILED;
      uint8_t *C = call.operand(pc, s.m, s.n, s.ldc, elementBytes(s.c), "matrix C" + suffix,
                                *betaValue != 0, true);
      if (!C)
        return CUBLAS_STATUS_EXECUTION_FAILED;
      if (s.doubleCompute)
        gemmProduct<double>(s, A, B, C, *alphaValue, *betaValue);
      else
        gemmProduct<float>(s, A, B, C, *alphaValue, *betaValue);
    }
    return CUBLAS_STATUS_SUCCESS;
  });
}

// The type alpha and beta have, and whether products are summed in double,
// for a compute type.
std::optional<std::pair<cudaDataType, bool>> computeType(cublasComputeType_t type) {
  switch (type) {
  case CUBLAS_COMPUTE_16F:
  case CUBLAS_COMPUTE_16F_PEDANTIC:
    return std::pair{CUDA_R_16F, false};
  case CUBLAS_COMPUTE_32F:
  case CUBLAS_COMPUTE_32F_PEDANTIC:
  case CUBLAS_COMPUTE_32F_FAST_16F:
  case CUBLAS_COMPUTE_32F_FAST_16BF:
  case CUBLAS_COMPUTE_32F_FAST_TF32:
    return std::pair{CUDA_R_32F, false};
  case CUBLAS_COMPUTE_64F:
  case CUBLAS_COMPUTE_64F_PEDANTIC:
    return std::pair{CUDA_R_64F, true};
  case CUBLAS_COMPUTE_32I:
  case CUBLAS_COMPUTE_32I_PEDANTIC:
    return std::pair{CUDA_R_32I, true};
  }
  return std::nullopt;
}

cublasStatus_t gemmEx(cublasHandle_t handle, const char *function, const void *site,
                      cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                      const void *alpha, Batch a, cudaDataType Atype, int lda, Batch b,
                      cudaDataType Btype, int ldb, const void *beta, Batch c, cudaDataType Ctype,
                      int ldc, int batchCount, cublasComputeType_t compute) {
  std::optional<std::pair<cudaDataType, bool>> scalars = computeType(compute);
  if (!scalars)
    return invalid(function, site, "an unknown compute type (" + number(int(compute)) + ")");
  GemmShape shape{transa, transb, m, n, k, lda, ldb, ldc, Atype, Btype, Ctype, scalars->second};
  return gemm(handle, function, site, shape, Scalar(handle, alpha, scalars->first),
              Scalar(handle, beta, scalars->first), a, b, c, batchCount);
}

template <class T>
cublasStatus_t typedGemm(cublasHandle_t handle, const char *function, const void *site,
                         cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                         const T *alpha, Batch a, int lda, Batch b, int ldb, const T *beta, Batch c,
                         int ldc, int batchCount) {
  constexpr cudaDataType type = std::is_same_v<T, __half> ? CUDA_R_16F : typeOf<T>();
  GemmShape shape{transa, transb, m, n, k, lda, ldb, ldc, type, type, type, type == CUDA_R_64F};
  return gemm(handle, function, site, shape, Scalar(handle, alpha, type),
              Scalar(handle, beta, type), a, b, c, batchCount);
}

template <class T>
cublasStatus_t geam(cublasHandle_t handle, const char *function, const void *site,
                    cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                    const T *alpha, const T *A, int lda, const T *beta, const T *B, int ldb, T *C,
                    int ldc) {
  if (!validOperation(transa) || !validOperation(transb))
    return invalid(function, site, kInvalidOperation);
  if (m < 0 || n < 0)
    return invalid(function, site, "a negative size (m " + number(m) + ", n " + number(n) + ")");
  int rowsA = transa == CUBLAS_OP_N ? m : n, rowsB = transb == CUBLAS_OP_N ? m : n;
  if (lda < std::max(1, rowsA) || ldb < std::max(1, rowsB) || ldc < std::max(1, m))
    return invalid(function, site,
                   "a leading dimension less than its matrix's rows (lda " + number(lda) +
                       ", ldb " + number(ldb) + ", ldc " + number(ldc) + ")");
  Scalar a(handle, alpha, typeOf<T>()), b(handle, beta, typeOf<T>());
  return run(handle, function, site, [=](Call &call) {
    if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
    std::optional<double> alphaValue = a.value(call, "alpha"), betaValue = b.value(call, "beta");
    if (!alphaValue || !betaValue)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    const uint8_t *pa = nullptr, *pb = nullptr;
    // A term whose factor is 0 is not read.
    if (*alphaValue != 0 &&
        !(pa = call.operand(A, rowsA, rowsA == m ? n : m, lda, sizeof(T), "matrix A", true, false)))
      return CUBLAS_STATUS_EXECUTION_FAILED;
    if (*betaValue != 0 &&
        !(pb = call.operand(B, rowsB, rowsB == m ? n : m, ldb, sizeof(T), "matrix B", true, false)))
      return CUBLAS_STATUS_EXECUTION_FAILED;
    uint8_t *pc = call.operand(C, m, n, ldc, sizeof(T), "matrix C", false, true);
    if (!pc)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    auto element = [](const uint8_t *base, cublasOperation_t op, int64_t i, int64_t j, int ld) {
      T value;
      std::memcpy(&value, base + elementIndex(op, i, j, ld) * sizeof(T), sizeof(T));
      return value;
    };
    // Computed whole before it is stored: C may be A or B.
    std::vector<T> result(size_t(m) * n);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        result[i + j * m] = (pa ? T(*alphaValue) * element(pa, transa, i, j, lda) : T(0)) +
                            (pb ? T(*betaValue) * element(pb, transb, i, j, ldb) : T(0));
    for (int64_t j = 0; j < n; ++j)
      std::memcpy(pc + j * ldc * sizeof(T), &result[j * m], m * sizeof(T));
    return CUBLAS_STATUS_SUCCESS;
  });
}

// ---- Levels 1 and 2 ---------------------------------------------------------

// A vector operand: n elements, |inc| apart.
template <class T>
T *vector(Call &call, const void *pointer, int n, int inc, const char *what, bool reads,
          bool writes) {
  return reinterpret_cast<T *>(
      call.operand(pointer, 1, n, std::max(1, std::abs(inc)), sizeof(T), what, reads, writes));
}

// A routine over vectors: nothing to do for n <= 0.
template <class T, class Body>
cublasStatus_t vectorRoutine(cublasHandle_t handle, const char *function, const void *site, int n,
                             Body body) {
  return run(handle, function, site,
             [=](Call &call) { return n <= 0 ? CUBLAS_STATUS_SUCCESS : body(call); });
}

// A reduction (dot, nrm2, asum, iamax): its result is 0 for an empty vector
// or a non-positive increment, as BLAS gives.
template <class R, class Body>
cublasStatus_t reduction(cublasHandle_t handle, const char *function, const void *site, int n,
                         int inc, R *result, Body body) {
  return run(handle, function, site, [=](Call &call) {
    R value = 0;
    if (n > 0 && inc > 0) {
      std::optional<R> computed = body(call);
      if (!computed)
        return CUBLAS_STATUS_EXECUTION_FAILED;
      value = *computed;
    }
    return putResult(call, handle, result, &value, sizeof(R)) ? CUBLAS_STATUS_SUCCESS
                                                              : CUBLAS_STATUS_EXECUTION_FAILED;
  });
}

template <class T>
cublasStatus_t axpy(cublasHandle_t handle, const char *function, const void *site, int n,
                    const T *alpha, const T *x, int incx, T *y, int incy) {
  Scalar a(handle, alpha, typeOf<T>());
  return vectorRoutine<T>(handle, function, site, n, [=](Call &call) {
    std::optional<double> value = a.value(call, "alpha");
    const T *px = vector<T>(call, x, n, incx, "vector x", true, false);
    T *py = vector<T>(call, y, n, incy, "vector y", true, true);
    if (!value || !px || !py)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int64_t i = 0; i < n; ++i)
      py[at(i, n, incy)] += T(*value) * px[at(i, n, incx)];
    return CUBLAS_STATUS_SUCCESS;
  });
}

template <class T>
cublasStatus_t scal(cublasHandle_t handle, const char *function, const void *site, int n,
                    const T *alpha, T *x, int incx) {
  Scalar a(handle, alpha, typeOf<T>());
  return vectorRoutine<T>(handle, function, site, incx > 0 ? n : 0, [=](Call &call) {
    std::optional<double> value = a.value(call, "alpha");
    T *px = vector<T>(call, x, n, incx, "vector x", true, true);
    if (!value || !px)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int64_t i = 0; i < n; ++i)
      px[i * incx] *= T(*value);
    return CUBLAS_STATUS_SUCCESS;
  });
}

template <class T>
cublasStatus_t copyOrSwap(cublasHandle_t handle, const char *function, const void *site, int n,
                          T *x, int incx, T *y, int incy, bool swap) {
  return vectorRoutine<T>(handle, function, site, n, [=](Call &call) {
    T *px = vector<T>(call, x, n, incx, "vector x", true, swap);
    T *py = vector<T>(call, y, n, incy, "vector y", swap, true);
    if (!px || !py)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int64_t i = 0; i < n; ++i) {
      T &from = px[at(i, n, incx)], &to = py[at(i, n, incy)];
      if (swap)
        std::swap(from, to);
      else
        to = from;
    }
    return CUBLAS_STATUS_SUCCESS;
  });
}

template <class T>
cublasStatus_t dot(cublasHandle_t handle, const char *function, const void *site, int n, const T *x,
                   int incx, const T *y, int incy, T *result) {
  return run(handle, function, site, [=](Call &call) {
    T value = 0;
    if (n > 0) {
      const T *px = vector<T>(call, x, n, incx, "vector x", true, false);
      const T *py = vector<T>(call, y, n, incy, "vector y", true, false);
      if (!px || !py)
        return CUBLAS_STATUS_EXECUTION_FAILED;
      for (int64_t i = 0; i < n; ++i)
        value += px[at(i, n, incx)] * py[at(i, n, incy)];
    }
    return putResult(call, handle, result, &value, sizeof(T)) ? CUBLAS_STATUS_SUCCESS
                                                              : CUBLAS_STATUS_EXECUTION_FAILED;
  });
}

// nrm2 (`squares`) or asum of x.
template <class T>
cublasStatus_t norm(cublasHandle_t handle, const char *function, const void *site, int n,
                    const T *x, int incx, T *result, bool squares) {
  return reduction<T>(handle, function, site, n, incx, result, [=](Call &call) -> std::optional<T> {
    const T *px = vector<T>(call, x, n, incx, "vector x", true, false);
    if (!px)
      return std::nullopt;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i)
      sum += squares ? double(px[i * incx]) * px[i * incx] : std::fabs(double(px[i * incx]));
    return T(squares ? std::sqrt(sum) : sum);
  });
}

// The 1-based index of the first element of largest (or smallest) magnitude.
template <class T>
cublasStatus_t extremum(cublasHandle_t handle, const char *function, const void *site, int n,
                        const T *x, int incx, int *result, bool largest) {
  return reduction<int>(handle, function, site, n, incx, result,
                        [=](Call &call) -> std::optional<int> {
                          const T *px = vector<T>(call, x, n, incx, "vector x", true, false);
                          if (!px)
                            return std::nullopt;
                          int best = 0;
                          for (int i = 1; i < n; ++i) {
                            T candidate = std::fabs(px[int64_t(i) * incx]),
                              current = std::fabs(px[int64_t(best) * incx]);
                            if (largest ? candidate > current : candidate < current)
                              best = i;
                          }
                          return best + 1;
                        });
}

// Why cuBLAS refuses the sizes of an m x n matrix and two vectors (gemv,
// ger); empty when it does not.
std::string matrixVectorProblem(int m, int n, int lda, int incx, int incy) {
  if (m < 0 || n < 0)
    return "a negative size (m " + number(m) + ", n " + number(n) + ")";
  if (lda < std::max(1, m))
    return "lda (" + number(lda) + ") is less than the rows of A (" + number(m) + ")";
  if (incx == 0 || incy == 0)
    return "an increment of 0 (incx " + number(incx) + ", incy " + number(incy) + ")";
  return "";
}

template <class T>
cublasStatus_t gemv(cublasHandle_t handle, const char *function, const void *site,
                    cublasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda,
                    const T *x, int incx, const T *beta, T *y, int incy) {
  if (!validOperation(trans))
    return invalid(function, site, kInvalidOperation);
  if (std::string problem = matrixVectorProblem(m, n, lda, incx, incy); !problem.empty())
    return invalid(function, site, problem);
  Scalar a(handle, alpha, typeOf<T>()), b(handle, beta, typeOf<T>());
  return run(handle, function, site, [=](Call &call) {
    if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
    std::optional<double> alphaValue = a.value(call, "alpha"), betaValue = b.value(call, "beta");
    if (!alphaValue || !betaValue)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    bool plain = trans == CUBLAS_OP_N;
    int lengthX = plain ? n : m, lengthY = plain ? m : n;
    const T *pa = reinterpret_cast<const T *>(
        call.operand(A, m, n, lda, sizeof(T), "matrix A", *alphaValue != 0, false));
    const T *px = vector<T>(call, x, lengthX, incx, "vector x", *alphaValue != 0, false);
    T *py = vector<T>(call, y, lengthY, incy, "vector y", *betaValue != 0, true);
    if (!pa || !px || !py)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int64_t r = 0; r < lengthY; ++r) {
      T sum = 0;
      if (*alphaValue != 0)
        for (int64_t i = 0; i < lengthX; ++i)
          sum += pa[elementIndex(trans, r, i, lda)] * px[at(i, lengthX, incx)];
      T &out = py[at(r, lengthY, incy)];
      out = T(*alphaValue) * sum + (*betaValue != 0 ? T(*betaValue) * out : T(0));
    }
    return CUBLAS_STATUS_SUCCESS;
  });
}

template <class T>
cublasStatus_t ger(cublasHandle_t handle, const char *function, const void *site, int m, int n,
                   const T *alpha, const T *x, int incx, const T *y, int incy, T *A, int lda) {
  if (std::string problem = matrixVectorProblem(m, n, lda, incx, incy); !problem.empty())
    return invalid(function, site, problem);
  Scalar a(handle, alpha, typeOf<T>());
  return run(handle, function, site, [=](Call &call) {
    if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
    std::optional<double> alphaValue = a.value(call, "alpha");
    const T *px = vector<T>(call, x, m, incx, "vector x", true, false);
    const T *py = vector<T>(call, y, n, incy, "vector y", true, false);
    T *pa = reinterpret_cast<T *>(call.operand(A, m, n, lda, sizeof(T), "matrix A", true, true));
    if (!alphaValue || !px || !py || !pa)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        pa[i + j * lda] += T(*alphaValue) * px[at(i, m, incx)] * py[at(j, n, incy)];
    return CUBLAS_STATUS_SUCCESS;
  });
}

// ---- Host and device copies ---------------------------------------------------

// Copies `cols` columns of `rows` elements between host and device memory
// (the runtime's copy: checked as cudaMemcpy's); a vector is one row.
cublasStatus_t copyMatrix(int rows, int cols, int elemSize, const void *from, int ldFrom, void *to,
                          int ldTo, const char *function, const void *site) {
  if (rows < 0 || cols < 0 || elemSize <= 0 || ldFrom <= 0 || ldTo <= 0 ||
      (cols > 1 && (ldFrom < rows || ldTo < rows)))
    return invalid(function, site,
                   "rows " + number(rows) + ", cols " + number(cols) + ", elemSize " +
                       number(elemSize) + ", leading dimensions " + number(ldFrom) + " and " +
                       number(ldTo));
  if (rows == 0 || cols == 0)
    return CUBLAS_STATUS_SUCCESS;
  const auto *source = static_cast<const uint8_t *>(from);
  auto *target = static_cast<uint8_t *>(to);
  // Whole columns at once when they are contiguous.
  bool packed = ldFrom == rows && ldTo == rows;
  int64_t runs = packed ? 1 : cols, runBytes = int64_t(rows) * elemSize * (packed ? cols : 1);
  for (int64_t c = 0; c < runs; ++c)
    if (Runtime::get().copy(target + c * ldTo * elemSize, source + c * ldFrom * elemSize,
                            uint64_t(runBytes), function, site))
      return CUBLAS_STATUS_MAPPING_ERROR;
  return CUBLAS_STATUS_SUCCESS;
}

// A vector: each element a column of one, `inc` elements apart.
cublasStatus_t copyVector(int n, int elemSize, const void *from, int incFrom, void *to, int incTo,
                          const char *function, const void *site) {
  if (incFrom <= 0 || incTo <= 0)
    return invalid(function, site,
                   "a non-positive increment (" + number(incFrom) + ", " + number(incTo) + ")");
  if (incFrom == 1 && incTo == 1)
    return copyMatrix(n, 1, elemSize, from, n, to, n, function, site);
  return copyMatrix(1, n, elemSize, from, incFrom, to, incTo, function, site);
}

// The copy issued on `stream`: recorded while it captures.
cublasStatus_t onStream(cudaStream_t stream, std::function<cublasStatus_t()> copy) {
  simulee::runtime::StreamWork work = [=] {
    return copy() == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
  };
  if (std::optional<cudaError_t> captured =
          simulee::runtime::captureWork(stream, cudaGraphNodeTypeMemcpy, work))
    return *captured == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
  return copy();
}

// Gives a handle's setting, or NOT_INITIALIZED for a handle not live.
template <class T>
cublasStatus_t getSetting(cublasHandle_t handle, T *out, T cublasContext::*member) {
  if (!isLive(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!out)
    return CUBLAS_STATUS_INVALID_VALUE;
  *out = handle->*member;
  return CUBLAS_STATUS_SUCCESS;
}

template <class T>
cublasStatus_t setSetting(cublasHandle_t handle, T value, T cublasContext::*member) {
  if (!isLive(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->*member = value;
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  *handle = handles.add(new cublasContext);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  if (!handles.remove(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t, int *version) {
  if (!version)
    return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value) {
  if (!value)
    return CUBLAS_STATUS_INVALID_VALUE;
  switch (type) {
  case MAJOR_VERSION:
    *value = CUBLAS_VER_MAJOR;
    return CUBLAS_STATUS_SUCCESS;
  case MINOR_VERSION:
    *value = CUBLAS_VER_MINOR;
    return CUBLAS_STATUS_SUCCESS;
  case PATCH_LEVEL:
    *value = CUBLAS_VER_PATCH;
    return CUBLAS_STATUS_SUCCESS;
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

size_t cublasGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *, size_t) {
  return isLive(handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  return setSetting(handle, stream, &cublasContext::stream);
}
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream) {
  return getSetting(handle, stream, &cublasContext::stream);
}
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode) {
  return getSetting(handle, mode, &cublasContext::pointerMode);
}
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
    return CUBLAS_STATUS_INVALID_VALUE;
  return setSetting(handle, mode, &cublasContext::pointerMode);
}
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t *mode) {
  return getSetting(handle, mode, &cublasContext::atomicsMode);
}
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
  return setSetting(handle, mode, &cublasContext::atomicsMode);
}
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode) {
  return getSetting(handle, mode, &cublasContext::mathMode);
}
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  return setSetting(handle, mode, &cublasContext::mathMode);
}

const char *cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "CUBLAS_STATUS_MAPPING_ERROR";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "success";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "the library was not initialized";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "the resource allocation failed";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "an invalid numeric value was used as an argument";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "an absent device architectural feature is required";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "an access to GPU memory space failed";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "the GPU program failed to execute";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "an internal operation failed";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "the functionality requested is not supported";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "an error was detected when checking the current licensing";
  }
  return "unknown error";
}

cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
  return copyVector(n, elemSize, x, incx, y, incy, "cublasSetVector", CALLER);
}
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
  return copyVector(n, elemSize, x, incx, y, incy, "cublasGetVector", CALLER);
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb) {
  return copyMatrix(rows, cols, elemSize, A, lda, B, ldb, "cublasSetMatrix", CALLER);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb) {
  return copyMatrix(rows, cols, elemSize, A, lda, B, ldb, "cublasGetMatrix", CALLER);
}
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *x, int incx, void *y, int incy,
                                    cudaStream_t stream) {
  const void *site = CALLER;
  return onStream(stream, [=] {
    return copyVector(n, elemSize, x, incx, y, incy, "cublasSetVectorAsync", site);
  });
}
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *x, int incx, void *y, int incy,
                                    cudaStream_t stream) {
  const void *site = CALLER;
  return onStream(stream, [=] {
    return copyVector(n, elemSize, x, incx, y, incy, "cublasGetVectorAsync", site);
  });
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                    void *B, int ldb, cudaStream_t stream) {
  const void *site = CALLER;
  return onStream(stream, [=] {
    return copyMatrix(rows, cols, elemSize, A, lda, B, ldb, "cublasSetMatrixAsync", site);
  });
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                    void *B, int ldb, cudaStream_t stream) {
  const void *site = CALLER;
  return onStream(stream, [=] {
    return copyMatrix(rows, cols, elemSize, A, lda, B, ldb, "cublasGetMatrixAsync", site);
  });
}

cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float *x, int incx, float *result) {
  return norm(h, "cublasSnrm2", CALLER, n, x, incx, result, true);
}
cublasStatus_t cublasDnrm2_v2(cublasHandle_t h, int n, const double *x, int incx, double *result) {
  return norm(h, "cublasDnrm2", CALLER, n, x, incx, result, true);
}
cublasStatus_t cublasSasum_v2(cublasHandle_t h, int n, const float *x, int incx, float *result) {
  return norm(h, "cublasSasum", CALLER, n, x, incx, result, false);
}
cublasStatus_t cublasDasum_v2(cublasHandle_t h, int n, const double *x, int incx, double *result) {
  return norm(h, "cublasDasum", CALLER, n, x, incx, result, false);
}
cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float *x, int incx, const float *y,
                             int incy, float *result) {
  return dot(h, "cublasSdot", CALLER, n, x, incx, y, incy, result);
}
cublasStatus_t cublasDdot_v2(cublasHandle_t h, int n, const double *x, int incx, const double *y,
                             int incy, double *result) {
  return dot(h, "cublasDdot", CALLER, n, x, incx, y, incy, result);
}
cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float *alpha, float *x, int incx) {
  return scal(h, "cublasSscal", CALLER, n, alpha, x, incx);
}
cublasStatus_t cublasDscal_v2(cublasHandle_t h, int n, const double *alpha, double *x, int incx) {
  return scal(h, "cublasDscal", CALLER, n, alpha, x, incx);
}
cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float *alpha, const float *x, int incx,
                              float *y, int incy) {
  return axpy(h, "cublasSaxpy", CALLER, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasDaxpy_v2(cublasHandle_t h, int n, const double *alpha, const double *x,
                              int incx, double *y, int incy) {
  return axpy(h, "cublasDaxpy", CALLER, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasScopy_v2(cublasHandle_t h, int n, const float *x, int incx, float *y,
                              int incy) {
  return copyOrSwap(h, "cublasScopy", CALLER, n, const_cast<float *>(x), incx, y, incy, false);
}
cublasStatus_t cublasDcopy_v2(cublasHandle_t h, int n, const double *x, int incx, double *y,
                              int incy) {
  return copyOrSwap(h, "cublasDcopy", CALLER, n, const_cast<double *>(x), incx, y, incy, false);
}
cublasStatus_t cublasSswap_v2(cublasHandle_t h, int n, float *x, int incx, float *y, int incy) {
  return copyOrSwap(h, "cublasSswap", CALLER, n, x, incx, y, incy, true);
}
cublasStatus_t cublasDswap_v2(cublasHandle_t h, int n, double *x, int incx, double *y, int incy) {
  return copyOrSwap(h, "cublasDswap", CALLER, n, x, incx, y, incy, true);
}
cublasStatus_t cublasIsamax_v2(cublasHandle_t h, int n, const float *x, int incx, int *result) {
  return extremum(h, "cublasIsamax", CALLER, n, x, incx, result, true);
}
cublasStatus_t cublasIdamax_v2(cublasHandle_t h, int n, const double *x, int incx, int *result) {
  return extremum(h, "cublasIdamax", CALLER, n, x, incx, result, true);
}
cublasStatus_t cublasIsamin_v2(cublasHandle_t h, int n, const float *x, int incx, int *result) {
  return extremum(h, "cublasIsamin", CALLER, n, x, incx, result, false);
}
cublasStatus_t cublasIdamin_v2(cublasHandle_t h, int n, const double *x, int incx, int *result) {
  return extremum(h, "cublasIdamin", CALLER, n, x, incx, result, false);
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n,
                              const float *alpha, const float *A, int lda, const float *x, int incx,
                              const float *beta, float *y, int incy) {
  return gemv(h, "cublasSgemv", CALLER, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasDgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n,
                              const double *alpha, const double *A, int lda, const double *x,
                              int incx, const double *beta, double *y, int incy) {
  return gemv(h, "cublasDgemv", CALLER, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasSger_v2(cublasHandle_t h, int m, int n, const float *alpha, const float *x,
                             int incx, const float *y, int incy, float *A, int lda) {
  return ger(h, "cublasSger", CALLER, m, n, alpha, x, incx, y, incy, A, lda);
}
cublasStatus_t cublasDger_v2(cublasHandle_t h, int m, int n, const double *alpha, const double *x,
                             int incx, const double *y, int incy, double *A, int lda) {
  return ger(h, "cublasDger", CALLER, m, n, alpha, x, incx, y, incy, A, lda);
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                              int m, int n, int k, const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta, float *C, int ldc) {
  return typedGemm(h, "cublasSgemm", CALLER, transa, transb, m, n, k, alpha, Batch{A}, lda,
                   Batch{B}, ldb, beta, Batch{C}, ldc, 1);
}
cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                              int m, int n, int k, const double *alpha, const double *A, int lda,
                              const double *B, int ldb, const double *beta, double *C, int ldc) {
  return typedGemm(h, "cublasDgemm", CALLER, transa, transb, m, n, k, alpha, Batch{A}, lda,
                   Batch{B}, ldb, beta, Batch{C}, ldc, 1);
}
cublasStatus_t cublasHgemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                           int m, int n, int k, const __half *alpha, const __half *A, int lda,
                           const __half *B, int ldb, const __half *beta, __half *C, int ldc) {
  return typedGemm(h, "cublasHgemm", CALLER, transa, transb, m, n, k, alpha, Batch{A}, lda,
                   Batch{B}, ldb, beta, Batch{C}, ldc, 1);
}
cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                            int m, int n, int k, const void *alpha, const void *A,
                            cudaDataType Atype, int lda, const void *B, cudaDataType Btype, int ldb,
                            const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t) {
  return gemmEx(h, "cublasGemmEx", CALLER, transa, transb, m, n, k, alpha, Batch{A}, Atype, lda,
                Batch{B}, Btype, ldb, beta, Batch{C}, Ctype, ldc, 1, computeType);
}
cublasStatus_t cublasSgemmBatched(cublasHandle_t h, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k, const float *alpha,
                                  const float *const Aarray[], int lda, const float *const Barray[],
                                  int ldb, const float *beta, float *const Carray[], int ldc,
                                  int batchCount) {
  return typedGemm(h, "cublasSgemmBatched", CALLER, transa, transb, m, n, k, alpha,
                   Batch{nullptr, 0, Aarray}, lda, Batch{nullptr, 0, Barray}, ldb, beta,
                   Batch{nullptr, 0, Carray}, ldc, batchCount);
}
cublasStatus_t cublasDgemmBatched(cublasHandle_t h, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const double *alpha, const double *const Aarray[], int lda,
                                  const double *const Barray[], int ldb, const double *beta,
                                  double *const Carray[], int ldc, int batchCount) {
  return typedGemm(h, "cublasDgemmBatched", CALLER, transa, transb, m, n, k, alpha,
                   Batch{nullptr, 0, Aarray}, lda, Batch{nullptr, 0, Barray}, ldb, beta,
                   Batch{nullptr, 0, Carray}, ldc, batchCount);
}
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k, const void *alpha,
                                   const void *const Aarray[], cudaDataType Atype, int lda,
                                   const void *const Barray[], cudaDataType Btype, int ldb,
                                   const void *beta, void *const Carray[], cudaDataType Ctype,
                                   int ldc, int batchCount, cublasComputeType_t computeType,
                                   cublasGemmAlgo_t) {
  return gemmEx(h, "cublasGemmBatchedEx", CALLER, transa, transb, m, n, k, alpha,
                Batch{nullptr, 0, Aarray}, Atype, lda, Batch{nullptr, 0, Barray}, Btype, ldb, beta,
                Batch{nullptr, 0, Carray}, Ctype, ldc, batchCount, computeType);
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const float *alpha, const float *A, int lda,
                                         long long int strideA, const float *B, int ldb,
                                         long long int strideB, const float *beta, float *C,
                                         int ldc, long long int strideC, int batchCount) {
  return typedGemm(h, "cublasSgemmStridedBatched", CALLER, transa, transb, m, n, k, alpha,
                   Batch{A, strideA}, lda, Batch{B, strideB}, ldb, beta, Batch{C, strideC}, ldc,
                   batchCount);
}
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const double *alpha, const double *A, int lda,
                                         long long int strideA, const double *B, int ldb,
                                         long long int strideB, const double *beta, double *C,
                                         int ldc, long long int strideC, int batchCount) {
  return typedGemm(h, "cublasDgemmStridedBatched", CALLER, transa, transb, m, n, k, alpha,
                   Batch{A, strideA}, lda, Batch{B, strideB}, ldb, beta, Batch{C, strideC}, ldc,
                   batchCount);
}
cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const __half *alpha, const __half *A, int lda,
                                         long long int strideA, const __half *B, int ldb,
                                         long long int strideB, const __half *beta, __half *C,
                                         int ldc, long long int strideC, int batchCount) {
  return typedGemm(h, "cublasHgemmStridedBatched", CALLER, transa, transb, m, n, k, alpha,
                   Batch{A, strideA}, lda, Batch{B, strideB}, ldb, beta, Batch{C, strideC}, ldc,
                   batchCount);
}
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B,
                                          cudaDataType Btype, int ldb, long long int strideB,
                                          const void *beta, void *C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t) {
  return gemmEx(h, "cublasGemmStridedBatchedEx", CALLER, transa, transb, m, n, k, alpha,
                Batch{A, strideA}, Atype, lda, Batch{B, strideB}, Btype, ldb, beta,
                Batch{C, strideC}, Ctype, ldc, batchCount, computeType);
}
cublasStatus_t cublasSgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                           int m, int n, const float *alpha, const float *A, int lda,
                           const float *beta, const float *B, int ldb, float *C, int ldc) {
  return geam(h, "cublasSgeam", CALLER, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
}
cublasStatus_t cublasDgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                           int m, int n, const double *alpha, const double *A, int lda,
                           const double *beta, const double *B, int ldb, double *C, int ldc) {
  return geam(h, "cublasDgeam", CALLER, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
}

} // extern "C"

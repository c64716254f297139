// cuRAND's host API under `simulee exec` (NVIDIA's curand.h, from the
// cuRAND wheel): generators whose numbers are written into the simulated
// device's memory (curandCreateGenerator) or the program's own
// (curandCreateGeneratorHost), in the generator's stream order. The numbers
// have cuRAND's distributions (uniform in (0, 1], normal, log-normal,
// Poisson, raw 32-bit words) and depend only on the seed, the offset and how
// many came before, but they are simulee's own sequence, not NVIDIA's: a
// program that compares them with numbers it stored from a GPU differs,
// one that checks their statistics does not. Quasi-random (Sobol)
// generators, and discrete distributions (which device code reads in
// NVIDIA's layout), are not provided. An output range outside a live allocation is
// a host finding and an error status, as a copy's is; what a generator
// writes counts as written.
#include "runtime/LiveObjects.h"
#include "runtime/Runtime.h"
#include "runtime/Signals.h"
#include "runtime/StreamCapture.h"

#include <curand.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>

using simulee::runtime::AddressInfo;
using simulee::runtime::Runtime;

#define CALLER __builtin_return_address(0)

struct curandGenerator_st {
  bool onHost = false; // curandCreateGeneratorHost: writes the program's memory
  curandRngType_t type = CURAND_RNG_PSEUDO_DEFAULT;
  unsigned long long seed = 0;
  unsigned long long offset = 0; // curandSetGeneratorOffset
  unsigned long long drawn = 0;  // 64-bit words drawn since the seed or offset was set
  cudaStream_t stream = nullptr;
};

namespace {

simulee::runtime::LiveObjects<curandGenerator_st> generators;

bool isLive(const curandGenerator_st *generator) { return generators.contains(generator); }

// The i-th 64-bit word of the sequence of `seed` (SplitMix64's finalizer of
// a Weyl sequence: every word depends only on the seed and its index).
uint64_t wordAt(uint64_t seed, uint64_t index) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + (index + 1) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The generator's next words, as doubles or integers.
class Draws {
public:
  explicit Draws(curandGenerator_st &generator) : generator_(generator) {}
  uint64_t word() { return wordAt(generator_.seed, generator_.offset + generator_.drawn++); }
  // Uniform in (0, 1], as cuRAND's: never 0.
  double uniform() { return double((word() >> 11) + 1) * 0x1.0p-53; }
  float uniformFloat() { return float((word() >> 40) + 1) * 0x1.0p-24f; }
  // Two normal numbers (Box-Muller), as cuRAND makes them in pairs.
  std::pair<double, double> normals(double mean, double stddev) {
    double radius = std::sqrt(-2.0 * std::log(uniform()));
    double angle = 2.0 * M_PI * uniform();
    return {mean + stddev * radius * std::cos(angle), mean + stddev * radius * std::sin(angle)};
  }
  unsigned poisson(double lambda) {
    if (lambda > 64) { // a normal approximation, rounded, as large means allow
      double value = std::nearbyint(normals(lambda, std::sqrt(lambda)).first);
      return unsigned(std::max(0.0, value));
    }
    double limit = std::exp(-lambda), product = uniform();
    unsigned count = 0;
    while (product > limit) {
      product *= uniform();
      ++count;
    }
    return count;
  }

private:
  curandGenerator_st &generator_;
};

curandStatus_t notInitialized(const char *function, const void *site) {
  Runtime::get().hostFinding(function, site,
                             "its generator is not one curandCreateGenerator made (or it was "
                             "destroyed)");
  return CURAND_STATUS_NOT_INITIALIZED;
}

// Fills `count` elements of `bytes` each at `output` with `fill(pointer to
// the first)`: in device memory for a device generator (checked as a copy
// is, written), in the program's memory for a host one; on the generator's
// stream.
curandStatus_t generate(curandGenerator_t generator, void *output, size_t count, unsigned bytes,
                        const char *function, const void *site,
                        std::function<void(uint8_t *, Draws &)> fill) {
  if (!isLive(generator))
    return notInitialized(function, site);
  if (count == 0)
    return CURAND_STATUS_SUCCESS;
  if (!output) {
    Runtime::get().hostFinding(function, site, "its output pointer is null");
    return CURAND_STATUS_LAUNCH_FAILURE;
  }
  uint64_t total = 0;
  if (__builtin_mul_overflow(uint64_t(count), uint64_t(bytes), &total)) {
    Runtime::get().hostFinding(function, site,
                               std::to_string(count) + " numbers are more bytes than any "
                                                       "allocation has");
    return CURAND_STATUS_LAUNCH_FAILURE;
  }
  bool onDevice = !generator->onHost;
  simulee::runtime::StreamWork work = [=] {
    simulee::runtime::RuntimeOperation operation(function, site);
    uint8_t *bytesOut = static_cast<uint8_t *>(output);
    AddressInfo info;
    if (onDevice) {
      info = Runtime::get().libraryMemory(output, total, function, "its output", site);
      if (!info.allocation)
        return cudaErrorLaunchFailure;
      bytesOut = info.bytes();
    } else if (simulee::runtime::isDevicePointer(reinterpret_cast<uintptr_t>(output))) {
      Runtime::get().hostFinding(function, site,
                                 "a host generator (curandCreateGeneratorHost) writes host "
                                 "memory; its output is device memory");
      return cudaErrorInvalidValue;
    }
    Draws draws(*generator);
    fill(bytesOut, draws);
    if (info.allocation)
      info.allocation->markWritten(info.offset, total);
    return cudaSuccess;
  };
  if (onDevice)
    if (std::optional<cudaError_t> captured =
            simulee::runtime::captureWork(generator->stream, cudaGraphNodeTypeKernel, work))
      return *captured == cudaSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
  if (Runtime::get().stickyError())
    return CURAND_STATUS_PREEXISTING_FAILURE;
  return work() == cudaSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
}

template <class T, class Value>
curandStatus_t generateEach(curandGenerator_t generator, T *output, size_t count,
                            const char *function, const void *site, Value value) {
  return generate(generator, output, count, sizeof(T), function, site,
                  [=](uint8_t *out, Draws &draws) {
                    for (size_t i = 0; i < count; ++i) {
                      T element = value(draws);
                      std::memcpy(out + i * sizeof(T), &element, sizeof(T));
                    }
                  });
}

// Normal numbers come in pairs: a pseudo-random generator refuses an odd
// count, as cuRAND does.
template <class T>
curandStatus_t generateNormal(curandGenerator_t generator, T *output, size_t count, double mean,
                              double stddev, bool logNormal, const char *function,
                              const void *site) {
  if (count % 2 != 0) {
    Runtime::get().hostFinding(function, site,
                               "an odd count (" + std::to_string(count) +
                                   ") of normal numbers, which come in pairs: "
                                   "CURAND_STATUS_LENGTH_NOT_MULTIPLE");
    return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  }
  return generate(generator, output, count, sizeof(T), function, site,
                  [=](uint8_t *out, Draws &draws) {
                    for (size_t i = 0; i < count; i += 2) {
                      auto [first, second] = draws.normals(mean, stddev);
                      T pair[2] = {T(logNormal ? std::exp(first) : first),
                                   T(logNormal ? std::exp(second) : second)};
                      std::memcpy(out + i * sizeof(T), pair, sizeof pair);
                    }
                  });
}

curandStatus_t create(curandGenerator_t *generator, curandRngType_t type, bool onHost,
                      const char *function, const void *site) {
  if (!generator)
    return CURAND_STATUS_NOT_INITIALIZED;
  switch (type) {
  case CURAND_RNG_PSEUDO_DEFAULT:
  case CURAND_RNG_PSEUDO_XORWOW:
  case CURAND_RNG_PSEUDO_MRG32K3A:
  case CURAND_RNG_PSEUDO_MTGP32:
  case CURAND_RNG_PSEUDO_MT19937:
  case CURAND_RNG_PSEUDO_PHILOX4_32_10:
    break;
  case CURAND_RNG_QUASI_DEFAULT:
  case CURAND_RNG_QUASI_SOBOL32:
  case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
  case CURAND_RNG_QUASI_SOBOL64:
  case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
    Runtime::get().unsupported(
        (std::string(function) + " with a quasi-random (Sobol) generator").c_str());
  default:
    Runtime::get().hostFinding(function, site,
                               "an unknown generator type (" + std::to_string(int(type)) + ")");
    return CURAND_STATUS_TYPE_ERROR;
  }
  auto *made = new curandGenerator_st;
  made->onHost = onHost;
  made->type = type;
  *generator = generators.add(made);
  return CURAND_STATUS_SUCCESS;
}

} // namespace

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type) {
  return create(generator, rng_type, false, "curandCreateGenerator", CALLER);
}

curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type) {
  return create(generator, rng_type, true, "curandCreateGeneratorHost", CALLER);
}

curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  if (!generators.remove(generator))
    return CURAND_STATUS_NOT_INITIALIZED;
  delete generator;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetVersion(int *version) {
  if (!version)
    return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetProperty(libraryPropertyType type, int *value) {
  if (!value)
    return CURAND_STATUS_OUT_OF_RANGE;
  switch (type) {
  case MAJOR_VERSION:
    *value = CURAND_VER_MAJOR;
    return CURAND_STATUS_SUCCESS;
  case MINOR_VERSION:
    *value = CURAND_VER_MINOR;
    return CURAND_STATUS_SUCCESS;
  case PATCH_LEVEL:
    *value = CURAND_VER_PATCH;
    return CURAND_STATUS_SUCCESS;
  }
  return CURAND_STATUS_OUT_OF_RANGE;
}

curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (!isLive(generator))
    return notInitialized("curandSetStream", CALLER);
  generator->stream = stream;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                  unsigned long long seed) {
  if (!isLive(generator))
    return notInitialized("curandSetPseudoRandomGeneratorSeed", CALLER);
  generator->seed = seed;
  generator->drawn = 0;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (!isLive(generator))
    return notInitialized("curandSetGeneratorOffset", CALLER);
  generator->offset = offset;
  generator->drawn = 0;
  return CURAND_STATUS_SUCCESS;
}

// The order a GPU's threads draw in: one sequence here.
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t) {
  if (!isLive(generator))
    return notInitialized("curandSetGeneratorOrdering", CALLER);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator, unsigned int) {
  if (!isLive(generator))
    return notInitialized("curandSetQuasiRandomGeneratorDimensions", CALLER);
  return CURAND_STATUS_TYPE_ERROR; // no quasi-random generator exists here
}

curandStatus_t curandGenerateSeeds(curandGenerator_t generator) {
  if (!isLive(generator))
    return notInitialized("curandGenerateSeeds", CALLER);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num) {
  return generateEach(generator, outputPtr, num, "curandGenerate", CALLER,
                      [](Draws &draws) { return unsigned(draws.word() >> 32); });
}

// 64-bit words come only from 64-bit quasi-random generators.
curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *, size_t) {
  if (!isLive(generator))
    return notInitialized("curandGenerateLongLong", CALLER);
  return CURAND_STATUS_TYPE_ERROR;
}

curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num) {
  return generateEach(generator, outputPtr, num, "curandGenerateUniform", CALLER,
                      [](Draws &draws) { return draws.uniformFloat(); });
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr,
                                           size_t num) {
  return generateEach(generator, outputPtr, num, "curandGenerateUniformDouble", CALLER,
                      [](Draws &draws) { return draws.uniform(); });
}

curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                    float mean, float stddev) {
  return generateNormal(generator, outputPtr, n, mean, stddev, false, "curandGenerateNormal",
                        CALLER);
}

curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n,
                                          double mean, double stddev) {
  return generateNormal(generator, outputPtr, n, mean, stddev, false, "curandGenerateNormalDouble",
                        CALLER);
}

curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                       float mean, float stddev) {
  return generateNormal(generator, outputPtr, n, mean, stddev, true, "curandGenerateLogNormal",
                        CALLER);
}

curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr,
                                             size_t n, double mean, double stddev) {
  return generateNormal(generator, outputPtr, n, mean, stddev, true,
                        "curandGenerateLogNormalDouble", CALLER);
}

curandStatus_t curandGeneratePoisson(curandGenerator_t generator, unsigned int *outputPtr, size_t n,
                                     double lambda) {
  if (!(lambda > 0))
    return CURAND_STATUS_OUT_OF_RANGE;
  return generateEach(generator, outputPtr, n, "curandGeneratePoisson", CALLER,
                      [lambda](Draws &draws) { return draws.poisson(lambda); });
}

} // extern "C"

// CUDA 12's surface functions (surf1Dread/surf2Dread/surf3Dread, the
// layered surf1DLayeredread/surf2DLayeredread, and the writes) for clang:
// NVIDIA's surface_indirect_functions.h relies on nvcc's
// __nv_tex_surf_handler, which clang's texture header does not provide for
// surfaces. Here they are the PTX suld.b/sust.b instructions a GPU runs,
// which simulee lowers like any inline PTX (ir/TexturePtx.h). Force-included
// with NVIDIA's headers; written for simulee.
#pragma once

#if defined(__CUDA__) && defined(__CUDA_ARCH__)

namespace __simulee_surfaces {

// One unformatted access of `bytes` (1, 2, 4, 8 or 16) at byte x, row y,
// slice z with the boundary mode's PTX suffix.
#define __SIMULEE_SULD_MODES(GEOM, COORDS, TYPE, DST, ...)                                        \
  if (mode == cudaBoundaryModeClamp)                                                              \
    asm volatile("suld.b." GEOM "." TYPE ".clamp " DST ", [%[s], " COORDS "];"                   \
                 : __VA_ARGS__ : [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z));                 \
  else if (mode == cudaBoundaryModeZero)                                                          \
    asm volatile("suld.b." GEOM "." TYPE ".zero " DST ", [%[s], " COORDS "];"                    \
                 : __VA_ARGS__ : [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z));                 \
  else                                                                                            \
    asm volatile("suld.b." GEOM "." TYPE ".trap " DST ", [%[s], " COORDS "];"                    \
                 : __VA_ARGS__ : [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z))

#define __SIMULEE_SUST_MODES(GEOM, COORDS, TYPE, SRC, ...)                                        \
  if (mode == cudaBoundaryModeClamp)                                                              \
    asm volatile("sust.b." GEOM "." TYPE ".clamp [%[s], " COORDS "], " SRC ";"                   \
                 : : [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z), __VA_ARGS__ : "memory");     \
  else if (mode == cudaBoundaryModeZero)                                                          \
    asm volatile("sust.b." GEOM "." TYPE ".zero [%[s], " COORDS "], " SRC ";"                    \
                 : : [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z), __VA_ARGS__ : "memory");     \
  else                                                                                            \
    asm volatile("sust.b." GEOM "." TYPE ".trap [%[s], " COORDS "], " SRC ";"                    \
                 : : [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z), __VA_ARGS__ : "memory")

#define __SIMULEE_SURFACE_GEOMETRY(NAME, GEOM, COORDS)                                            \
  static __device__ inline void load##NAME(void *out, int bytes, cudaSurfaceObject_t s, int x,   \
                                           int y, int z, cudaSurfaceBoundaryMode mode) {          \
    unsigned short h = 0;                                                                          \
    unsigned w[4] = {0, 0, 0, 0};                                                                  \
    if (bytes == 1) {                                                                              \
      __SIMULEE_SULD_MODES(GEOM, COORDS, "b8", "{%0}", "=h"(h));                                  \
      *(unsigned char *)out = (unsigned char)h;                                                    \
    } else if (bytes == 2) {                                                                       \
      __SIMULEE_SULD_MODES(GEOM, COORDS, "b16", "{%0}", "=h"(h));                                 \
      *(unsigned short *)out = h;                                                                  \
    } else if (bytes == 4) {                                                                       \
      __SIMULEE_SULD_MODES(GEOM, COORDS, "b32", "{%0}", "=r"(w[0]));                              \
      *(unsigned *)out = w[0];                                                                     \
    } else if (bytes == 8) {                                                                       \
      __SIMULEE_SULD_MODES(GEOM, COORDS, "v2.b32", "{%0, %1}", "=r"(w[0]), "=r"(w[1]));           \
      ((unsigned *)out)[0] = w[0];                                                                 \
      ((unsigned *)out)[1] = w[1];                                                                 \
    } else {                                                                                       \
      __SIMULEE_SULD_MODES(GEOM, COORDS, "v4.b32", "{%0, %1, %2, %3}", "=r"(w[0]), "=r"(w[1]),    \
                           "=r"(w[2]), "=r"(w[3]));                                                \
      for (int i = 0; i < 4; ++i)                                                                  \
        ((unsigned *)out)[i] = w[i];                                                               \
    }                                                                                              \
  }                                                                                                \
  static __device__ inline void store##NAME(const void *in, int bytes, cudaSurfaceObject_t s,    \
                                            int x, int y, int z, cudaSurfaceBoundaryMode mode) {  \
    if (bytes == 1) {                                                                              \
      unsigned short h = *(const unsigned char *)in;                                               \
      __SIMULEE_SUST_MODES(GEOM, COORDS, "b8", "{%4}", "h"(h));                                   \
    } else if (bytes == 2) {                                                                       \
      unsigned short h = *(const unsigned short *)in;                                              \
      __SIMULEE_SUST_MODES(GEOM, COORDS, "b16", "{%4}", "h"(h));                                  \
    } else if (bytes == 4) {                                                                       \
      unsigned w = *(const unsigned *)in;                                                          \
      __SIMULEE_SUST_MODES(GEOM, COORDS, "b32", "{%4}", "r"(w));                                  \
    } else if (bytes == 8) {                                                                       \
      const unsigned *w = (const unsigned *)in;                                                    \
      __SIMULEE_SUST_MODES(GEOM, COORDS, "v2.b32", "{%4, %5}", "r"(w[0]), "r"(w[1]));             \
    } else {                                                                                       \
      const unsigned *w = (const unsigned *)in;                                                    \
      __SIMULEE_SUST_MODES(GEOM, COORDS, "v4.b32", "{%4, %5, %6, %7}", "r"(w[0]), "r"(w[1]),      \
                           "r"(w[2]), "r"(w[3]));                                                  \
    }                                                                                              \
  }

__SIMULEE_SURFACE_GEOMETRY(1D, "1d", "{%[x]}")
__SIMULEE_SURFACE_GEOMETRY(2D, "2d", "{%[x], %[y]}")
__SIMULEE_SURFACE_GEOMETRY(3D, "3d", "{%[x], %[y], %[z], %[z]}")
// Layered surfaces: the layer comes first in PTX's coordinate vector.
__SIMULEE_SURFACE_GEOMETRY(1DLayered, "a1d", "{%[z], %[x]}")
__SIMULEE_SURFACE_GEOMETRY(2DLayered, "a2d", "{%[z], %[x], %[y], %[y]}")

#undef __SIMULEE_SURFACE_GEOMETRY
#undef __SIMULEE_SUST_MODES
#undef __SIMULEE_SULD_MODES

template <class T> struct __Element {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                    sizeof(T) == 16,
                "surface elements are 1, 2, 4, 8 or 16 bytes");
};

} // namespace __simulee_surfaces

template <class T>
static __device__ inline T surf1Dread(cudaSurfaceObject_t s, int x,
                                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  T value;
  __simulee_surfaces::load1D(&value, sizeof(T), s, x, 0, 0, mode);
  return value;
}
template <class T>
static __device__ inline T surf2Dread(cudaSurfaceObject_t s, int x, int y,
                                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  T value;
  __simulee_surfaces::load2D(&value, sizeof(T), s, x, y, 0, mode);
  return value;
}
template <class T>
static __device__ inline T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z,
                                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  T value;
  __simulee_surfaces::load3D(&value, sizeof(T), s, x, y, z, mode);
  return value;
}
template <class T>
static __device__ inline void surf1Dread(T *value, cudaSurfaceObject_t s, int x,
                                         cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  *value = surf1Dread<T>(s, x, mode);
}
template <class T>
static __device__ inline void surf2Dread(T *value, cudaSurfaceObject_t s, int x, int y,
                                         cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  *value = surf2Dread<T>(s, x, y, mode);
}
template <class T>
static __device__ inline void surf3Dread(T *value, cudaSurfaceObject_t s, int x, int y, int z,
                                         cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  *value = surf3Dread<T>(s, x, y, z, mode);
}
template <class T>
static __device__ inline void surf1Dwrite(T value, cudaSurfaceObject_t s, int x,
                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  __simulee_surfaces::store1D(&value, sizeof(T), s, x, 0, 0, mode);
}
template <class T>
static __device__ inline void surf2Dwrite(T value, cudaSurfaceObject_t s, int x, int y,
                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  __simulee_surfaces::store2D(&value, sizeof(T), s, x, y, 0, mode);
}
template <class T>
static __device__ inline void surf3Dwrite(T value, cudaSurfaceObject_t s, int x, int y, int z,
                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  __simulee_surfaces::store3D(&value, sizeof(T), s, x, y, z, mode);
}

template <class T>
static __device__ inline T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer,
                                             cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  T value;
  __simulee_surfaces::load1DLayered(&value, sizeof(T), s, x, 0, layer, mode);
  return value;
}
template <class T>
static __device__ inline T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer,
                                             cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  T value;
  __simulee_surfaces::load2DLayered(&value, sizeof(T), s, x, y, layer, mode);
  return value;
}
template <class T>
static __device__ inline void surf1DLayeredread(T *value, cudaSurfaceObject_t s, int x, int layer,
                                                cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  *value = surf1DLayeredread<T>(s, x, layer, mode);
}
template <class T>
static __device__ inline void surf2DLayeredread(T *value, cudaSurfaceObject_t s, int x, int y,
                                                int layer,
                                                cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  *value = surf2DLayeredread<T>(s, x, y, layer, mode);
}
template <class T>
static __device__ inline void surf1DLayeredwrite(T value, cudaSurfaceObject_t s, int x, int layer,
                                                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  __simulee_surfaces::store1DLayered(&value, sizeof(T), s, x, 0, layer, mode);
}
template <class T>
static __device__ inline void surf2DLayeredwrite(T value, cudaSurfaceObject_t s, int x, int y,
                                                 int layer,
                                                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  (void)__simulee_surfaces::__Element<T>{};
  __simulee_surfaces::store2DLayered(&value, sizeof(T), s, x, y, layer, mode);
}

#elif defined(__CUDA__)

// The host side of a .cu file (simulee exec) parses kernel bodies without
// emitting them: declarations suffice.
template <class T>
__device__ T surf1Dread(cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf2Dread(cudaSurfaceObject_t, int, int,
                        cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf3Dread(cudaSurfaceObject_t, int, int, int,
                        cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1Dread(T *, cudaSurfaceObject_t, int,
                           cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2Dread(T *, cudaSurfaceObject_t, int, int,
                           cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf3Dread(T *, cudaSurfaceObject_t, int, int, int,
                           cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1Dwrite(T, cudaSurfaceObject_t, int,
                            cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int,
                            cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int,
                            cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf1DLayeredread(cudaSurfaceObject_t, int, int,
                               cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf2DLayeredread(cudaSurfaceObject_t, int, int, int,
                               cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1DLayeredread(T *, cudaSurfaceObject_t, int, int,
                                  cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2DLayeredread(T *, cudaSurfaceObject_t, int, int, int,
                                  cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1DLayeredwrite(T, cudaSurfaceObject_t, int, int,
                                   cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int,
                                   cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);

#endif

// Resolves #include <nvToolsExt.h> (and <nvtx3/nvToolsExt.h>), NVIDIA's
// Tools Extension, which NVIDIA's wheels that simulee uses do not ship:
// programs mark ranges and events for a profiler with it. No profiler runs
// under simulee, so every call does nothing and answers as NVTX does when no
// tool is attached (a push or pop: NVTX_NO_PUSH_POP_TRACKING). The calls are
// defined here, so a program linked with -lnvToolsExt needs no library.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#define NVTX_VERSION 3
#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;

typedef enum nvtxColorType_t {
  NVTX_COLOR_UNKNOWN = 0,
  NVTX_COLOR_ARGB = 1
} nvtxColorType_t;

typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0,
  NVTX_MESSAGE_TYPE_ASCII = 1,
  NVTX_MESSAGE_TYPE_UNICODE = 2,
  NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;

typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
  NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
  NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
  const char *ascii;
  const wchar_t *unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;

// What a program fills to describe a mark or range (its colour, a number
// carried with it, its message).
typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  union payload_t {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_t;

#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))

#define __SIMULEE_NVTX static inline
__SIMULEE_NVTX void nvtxInitialize(const void *) {}
__SIMULEE_NVTX void nvtxMarkEx(const nvtxEventAttributes_t *) {}
__SIMULEE_NVTX void nvtxMarkA(const char *) {}
__SIMULEE_NVTX void nvtxMarkW(const wchar_t *) {}
__SIMULEE_NVTX nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *) { return 0; }
__SIMULEE_NVTX nvtxRangeId_t nvtxRangeStartA(const char *) { return 0; }
__SIMULEE_NVTX nvtxRangeId_t nvtxRangeStartW(const wchar_t *) { return 0; }
__SIMULEE_NVTX void nvtxRangeEnd(nvtxRangeId_t) {}
__SIMULEE_NVTX int nvtxRangePushEx(const nvtxEventAttributes_t *) {
  return NVTX_NO_PUSH_POP_TRACKING;
}
__SIMULEE_NVTX int nvtxRangePushA(const char *) { return NVTX_NO_PUSH_POP_TRACKING; }
__SIMULEE_NVTX int nvtxRangePushW(const wchar_t *) { return NVTX_NO_PUSH_POP_TRACKING; }
__SIMULEE_NVTX int nvtxRangePop(void) { return NVTX_NO_PUSH_POP_TRACKING; }
__SIMULEE_NVTX void nvtxNameCategoryA(uint32_t, const char *) {}
__SIMULEE_NVTX void nvtxNameCategoryW(uint32_t, const wchar_t *) {}
__SIMULEE_NVTX void nvtxNameOsThreadA(uint32_t, const char *) {}
__SIMULEE_NVTX void nvtxNameOsThreadW(uint32_t, const wchar_t *) {}
__SIMULEE_NVTX nvtxDomainHandle_t nvtxDomainCreateA(const char *) { return 0; }
__SIMULEE_NVTX nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *) { return 0; }
__SIMULEE_NVTX void nvtxDomainDestroy(nvtxDomainHandle_t) {}
__SIMULEE_NVTX void nvtxDomainMarkEx(nvtxDomainHandle_t, const nvtxEventAttributes_t *) {}
__SIMULEE_NVTX nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t,
                                                    const nvtxEventAttributes_t *) {
  return 0;
}
__SIMULEE_NVTX void nvtxDomainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t) {}
__SIMULEE_NVTX int nvtxDomainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t *) {
  return NVTX_NO_PUSH_POP_TRACKING;
}
__SIMULEE_NVTX int nvtxDomainRangePop(nvtxDomainHandle_t) { return NVTX_NO_PUSH_POP_TRACKING; }
__SIMULEE_NVTX nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t, const char *) {
  return 0;
}
__SIMULEE_NVTX nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t,
                                                            const wchar_t *) {
  return 0;
}
__SIMULEE_NVTX void nvtxDomainNameCategoryA(nvtxDomainHandle_t, uint32_t, const char *) {}
__SIMULEE_NVTX void nvtxDomainNameCategoryW(nvtxDomainHandle_t, uint32_t, const wchar_t *) {}
#undef __SIMULEE_NVTX

// The names programs call, NVTX's ASCII variants (as without UNICODE).
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxRangePush nvtxRangePushA
#define nvtxNameCategory nvtxNameCategoryA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxDomainCreate nvtxDomainCreateA
#define nvtxDomainRegisterString nvtxDomainRegisterStringA
#define nvtxDomainNameCategory nvtxDomainNameCategoryA

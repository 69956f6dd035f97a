#pragma once
// The DLPack exchange structures (https://dmlc.github.io/dlpack/latest/c_api.html), written from the
// specification's C ABI: the layouts and constants below are what every producer and consumer
// agrees on, so they must not change. Only what engine reads or writes is declared.
#include <cstdint>

namespace engine::dlpack {

// The version engine produces for versioned capsules: consumers compare the major number.
constexpr uint32_t kMajorVersion = 1;
constexpr uint32_t kMinorVersion = 0;

// The capsule names of the Python exchange protocol. A consumer renames the capsule to the "used"
// name when it takes ownership, so that the capsule's destructor no longer frees the tensor.
constexpr const char* kCapsuleName = "dltensor";
constexpr const char* kUsedCapsuleName = "used_dltensor";
constexpr const char* kVersionedCapsuleName = "dltensor_versioned";
constexpr const char* kUsedVersionedCapsuleName = "used_dltensor_versioned";

// DLDeviceType (an int32 enum in C); engine tensors live on the CPU.
constexpr int32_t kDLCPU = 1;
constexpr int32_t kDLCUDAHost = 3;
constexpr int32_t kDLCUDAManaged = 13;

// DLDataTypeCode.
constexpr uint8_t kDLInt = 0;
constexpr uint8_t kDLUInt = 1;
constexpr uint8_t kDLFloat = 2;
constexpr uint8_t kDLOpaqueHandle = 3;
constexpr uint8_t kDLBfloat = 4;
constexpr uint8_t kDLComplex = 5;
constexpr uint8_t kDLBool = 6;

// DLManagedTensorVersioned.flags.
constexpr uint64_t kFlagReadOnly = 1ULL << 0;
constexpr uint64_t kFlagIsCopied = 1ULL << 1;

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; NULL means compact row-major
  uint64_t byte_offset;
};

// The unversioned (legacy, DLPack < 1.0) managed tensor, exchanged in a "dltensor" capsule.
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// The versioned managed tensor (DLPack >= 1.0), exchanged in a "dltensor_versioned" capsule.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // namespace engine::dlpack

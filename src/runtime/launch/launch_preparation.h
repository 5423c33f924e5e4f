// LaunchPreparation: a family's per-call host step, run on every launch of its kernel just before the launch, for the
// kernel parameters that depend on the call's operands and cannot be made once when the kernel is loaded — a Hopper
// family's TMA descriptors (tensor maps, encoded with cuTensorMapEncodeTiled for the call's pointers, and kept per
// pointer by the family so that the hot path encodes nothing it has seen before). Its parameters follow the
// KernelArgs in the kernel's parameter list.
//
// prepare() runs on the calling thread of every gemm() of the kernel, concurrently from many threads: it must be
// thread-safe, and fast (the hot path's budget is about 2 us of host time in all).
#pragma once

#include <cstddef>
#include <cstring>

#include "runtime/launch/kernel_args.h"

namespace jitgemm {

// The parameters a preparation adds, by value: up to kMax of up to 128 bytes each, 64-byte aligned (a CUtensorMap is
// 128 bytes with 64-byte alignment).
class ExtraParameters {
public:
    static constexpr int kMax = 4;
    static constexpr std::size_t kMaxBytes = 128;

    // Appends a parameter; its bytes are copied. Returns false when full or too large (the launch then fails).
    bool add(const void* bytes, std::size_t size) {
        if (count_ >= kMax || size > kMaxBytes) return false;
        std::memcpy(storage_[count_], bytes, size);
        ++count_;
        return true;
    }
    int count() const { return count_; }
    void* parameter(int i) { return storage_[i]; }

private:
    alignas(64) unsigned char storage_[kMax][kMaxBytes];
    int count_ = 0;
};

class LaunchPreparation {
public:
    virtual ~LaunchPreparation() = default;
    // Adds the kernel's parameters after its KernelArgs, for this call's `args` (workspace already filled in).
    // Throws jitgemm::Error when the call cannot be prepared (nothing has been launched then).
    virtual void prepare(const KernelArgs& args, ExtraParameters& extra) const = 0;
};

}  // namespace jitgemm

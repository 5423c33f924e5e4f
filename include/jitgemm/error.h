// The one way jitgemm reports failure: every public function throws jitgemm::Error, whose code() says what kind
// of failure it is and whose what() is a complete sentence meant for a person ("jitgemm: lda = 3 is below ...").
// A function that throws has changed nothing the caller can observe: no device memory was written and no cache
// entry was changed.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "jitgemm/export.h"

namespace jitgemm {

enum class ErrorCode {
    InvalidArgument,  // the caller's arguments are wrong (null pointer, negative size, lda too small, ...)
    Unsupported,      // valid arguments that this build or device does not handle (a dtype combination, ...)
    NoDriver,         // libcuda.so.1 could not be loaded or lacks an entry point jitgemm needs
    NoDevice,         // the driver loaded but reports no usable CUDA device
    CudaError,        // a CUDA driver call failed
    CompileError,     // NVRTC rejected a kernel; the message carries the log and the options
    CacheError,       // the tuning cache could not be read or written
    Internal,         // a broken invariant inside jitgemm: a bug, please report it
    NotTuned,         // under TunePolicy::Never, a problem the cache holds no kernel for (nothing was compiled)
};

JITGEMM_API std::string_view to_string(ErrorCode);

class JITGEMM_API Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message);
    ErrorCode code() const noexcept { return code_; }

private:
    ErrorCode code_;
};

}  // namespace jitgemm

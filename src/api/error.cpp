// jitgemm::Error: the exception every public function throws.
#include "jitgemm/error.h"

namespace jitgemm {

Error::Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}

}  // namespace jitgemm

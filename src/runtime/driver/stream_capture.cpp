// cuStreamIsCapturing and cuThreadExchangeStreamCaptureMode, behind names that say what jitgemm asks.
#include "runtime/driver/stream_capture.h"

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

namespace jitgemm::driver {

bool is_capturing(CUstream stream) {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    JITGEMM_CU_CHECK(api().cuStreamIsCapturing(stream, &status));
    // An invalidated capture still counts: it ends only at cuStreamEndCapture, and until then the stream records.
    return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

RelaxedCaptureMode::RelaxedCaptureMode() {
    JITGEMM_CU_CHECK(api().cuThreadExchangeStreamCaptureMode(&previous_));
}

RelaxedCaptureMode::~RelaxedCaptureMode() {
    CUstreamCaptureMode mode = previous_;
    api().cuThreadExchangeStreamCaptureMode(&mode);  // cannot fail for a mode the driver handed out
}

}  // namespace jitgemm::driver

// Stream capture (CUDA graphs) as jitgemm meets it: a program may call jitgemm::gemm on a stream it is capturing
// into a graph. Work enqueued then is recorded, not run, and the driver forbids calls that would allocate, wait or
// otherwise act outside the stream (in the default "global" mode, from any thread): one such call invalidates the
// whole capture. So on a capturing stream jitgemm tunes nothing and waits for nothing, takes scratch memory as graph
// allocations, and loads the kernel it must compile in relaxed mode (dispatch/kernel_builder.h, launch/).
#pragma once

#include <cuda.h>

namespace jitgemm::driver {

// Whether work enqueued on `stream` in the current context is being captured. Throws Error(CudaError), e.g. for
// the legacy default stream while another stream captures in global mode (nothing may be enqueued there then).
bool is_capturing(CUstream stream);

// While alive, the calling thread is in relaxed capture mode: it may load modules and query functions while a
// capture is under way without invalidating it. Those calls touch no stream; the driver forbids them only because
// it cannot tell them from calls that do. The thread's previous mode is restored on destruction.
class RelaxedCaptureMode {
public:
    RelaxedCaptureMode();
    ~RelaxedCaptureMode();
    RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
    RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

private:
    CUstreamCaptureMode previous_ = CU_STREAM_CAPTURE_MODE_RELAXED;
};

}  // namespace jitgemm::driver

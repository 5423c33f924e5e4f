// The umbrella header of jitgemm's public API. It pulls in no CUDA, NVRTC or SQLite header.
#pragma once

#include "jitgemm/error.h"
#include "jitgemm/gemm.h"
#include "jitgemm/log.h"
#include "jitgemm/types.h"
#include "jitgemm/version.h"

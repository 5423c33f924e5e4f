// KernelStore: the in-memory map from (context, Problem, requested config) to a loaded kernel. A hit is the hot
// path: one hash lookup under a shared lock. A miss builds the kernel once even when several threads ask for it at
// the same time; the others wait for that build.
#pragma once

#include <cuda.h>

#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/launch/loaded_kernel.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

struct KernelKey {
    CUcontext context = nullptr;
    Problem problem;
    std::string config;  // GemmOptions::config; empty for jitgemm's own choice
    // The kernel a call on a capturing stream built when the key above had none: untuned, kept apart so that the
    // first call outside a capture still finds the key missing and tunes it by the policy.
    bool during_capture = false;
    // GemmOptions::deterministic: the kernel first built under this key is never replaced (no background swap).
    bool deterministic = false;

    friend bool operator==(const KernelKey& x, const KernelKey& y) {
        return x.context == y.context && x.problem == y.problem && x.config == y.config &&
               x.during_capture == y.during_capture && x.deterministic == y.deterministic;
    }
};

struct KernelKeyHash {
    std::size_t operator()(const KernelKey& key) const noexcept;
};

class KernelStore {
public:
    using Builder = std::function<std::shared_ptr<const LoadedKernel>()>;

    // nullptr when the key has no kernel yet.
    std::shared_ptr<const LoadedKernel> find(const KernelKey& key) const;

    // The kernel of `key`, built by `build` if no thread has built it. A build that throws leaves nothing behind,
    // and its exception reaches every thread that waited for it.
    std::shared_ptr<const LoadedKernel> get_or_build(const KernelKey& key, const Builder& build);

    // Swaps in a better kernel for `key` (a background tuning's winner). Launches already enqueued keep running:
    // the replaced kernel's module is retired, not unloaded.
    void replace(const KernelKey& key, std::shared_ptr<const LoadedKernel> kernel);

    std::size_t size() const;

    // The process-wide store used by jitgemm::gemm.
    static KernelStore& global();

private:
    mutable std::shared_mutex mutex_;
    std::unordered_map<KernelKey, std::shared_ptr<const LoadedKernel>, KernelKeyHash> kernels_;
    std::vector<std::shared_ptr<const LoadedKernel>> retired_;
    std::mutex building_mutex_;
    std::unordered_map<KernelKey, std::shared_future<std::shared_ptr<const LoadedKernel>>, KernelKeyHash> building_;
};

}  // namespace jitgemm

namespace jitgemm {

struct GemmCall;

// The kernel jitgemm::gemm launched for this call and config in the current context, or nullptr if none yet
// (for tools that report which configuration ran and its registers).
std::shared_ptr<const LoadedKernel> find_loaded_kernel(const GemmCall& call, const std::string& config);

}  // namespace jitgemm

// The in-memory kernel map and its once-only builds.
#include "dispatch/kernel_store.h"

namespace jitgemm {

std::size_t KernelKeyHash::operator()(const KernelKey& key) const noexcept {
    std::size_t h = ProblemHash{}(key.problem);
    h ^= std::hash<const void*>{}(key.context) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    if (!key.config.empty()) h ^= std::hash<std::string>{}(key.config) + (h << 6) + (h >> 2);
    if (key.deterministic) h ^= 0x5bd1e9955bd1e995ull;
    return key.during_capture ? ~h : h;
}

std::shared_ptr<const LoadedKernel> KernelStore::find(const KernelKey& key) const {
    std::shared_lock lock(mutex_);
    const auto it = kernels_.find(key);
    return it == kernels_.end() ? nullptr : it->second;
}

std::shared_ptr<const LoadedKernel> KernelStore::get_or_build(const KernelKey& key, const Builder& build) {
    if (auto hit = find(key)) return hit;
    std::promise<std::shared_ptr<const LoadedKernel>> promise;
    std::shared_future<std::shared_ptr<const LoadedKernel>> pending;
    {
        std::lock_guard lock(building_mutex_);
        if (auto hit = find(key)) return hit;  // finished while we waited for the lock
        const auto it = building_.find(key);
        if (it != building_.end()) {
            pending = it->second;
        } else {
            building_.emplace(key, promise.get_future().share());
        }
    }
    if (pending.valid()) return pending.get();  // another thread builds it; rethrows its failure

    try {
        auto kernel = build();
        {
            std::unique_lock lock(mutex_);
            kernels_.emplace(key, kernel);
        }
        promise.set_value(kernel);
        std::lock_guard lock(building_mutex_);
        building_.erase(key);
        return kernel;
    } catch (...) {
        promise.set_exception(std::current_exception());
        std::lock_guard lock(building_mutex_);
        building_.erase(key);
        throw;
    }
}

void KernelStore::replace(const KernelKey& key, std::shared_ptr<const LoadedKernel> kernel) {
    std::unique_lock lock(mutex_);
    auto& slot = kernels_[key];
    if (slot) retired_.push_back(std::move(slot));
    slot = std::move(kernel);
}

std::size_t KernelStore::size() const {
    std::shared_lock lock(mutex_);
    return kernels_.size();
}

KernelStore& KernelStore::global() {
    static KernelStore store;
    return store;
}

}  // namespace jitgemm

#include "runtime/driver/context.h"
#include "runtime/problem/gemm_call.h"

namespace jitgemm {

std::shared_ptr<const LoadedKernel> find_loaded_kernel(const GemmCall& call, const std::string& config) {
    const CanonicalCall canonical = make_canonical_call(call);
    if (canonical.no_work) return nullptr;
    return KernelStore::global().find(KernelKey{driver::current_context(), canonical.problem, config});
}

}  // namespace jitgemm

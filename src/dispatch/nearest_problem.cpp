// The tuned problems nearest to a problem of the same layer.
#include "dispatch/nearest_problem.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace jitgemm {
namespace {

// Every field but the sizes and leading dimensions: what makes two problems one layer's.
bool same_layer(const Problem& x, const Problem& y) {
    Problem x_sizes = x, y_sizes = y;
    for (Problem* p : {&x_sizes, &y_sizes}) p->m = p->n = p->lda = p->ldb = p->ldc = 0;
    return x_sizes == y_sizes;
}

}  // namespace

std::vector<NearbyProblem> nearest_problems(const Problem& wanted, const std::vector<std::string>& tuned_keys) {
    std::vector<NearbyProblem> nearby;
    for (const std::string& key : tuned_keys) {
        const std::optional<Problem> tuned = Problem::parse_key(key);
        if (!tuned || tuned->runtime_dim != 0 || *tuned == wanted || !same_layer(*tuned, wanted)) continue;
        if (tuned->n == wanted.n)
            nearby.push_back({*tuned, 1, std::fabs(std::log2(double(tuned->m) / double(wanted.m)))});
        else if (tuned->m == wanted.m)
            nearby.push_back({*tuned, 2, std::fabs(std::log2(double(tuned->n) / double(wanted.n)))});
    }
    const auto size = [](const NearbyProblem& p) { return p.runtime_dim == 1 ? p.tuned.m : p.tuned.n; };
    std::stable_sort(nearby.begin(), nearby.end(), [&](const NearbyProblem& x, const NearbyProblem& y) {
        if (x.distance != y.distance) return x.distance < y.distance;
        return size(x) > size(y);
    });
    return nearby;
}

}  // namespace jitgemm

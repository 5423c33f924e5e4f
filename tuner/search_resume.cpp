#include "tuner/search_resume.h"

#include <algorithm>
#include <map>
#include <utility>

namespace jitgemm {

ResumePlan plan_resumed_search(const std::vector<AnyConfig>& candidates,
                               const std::vector<cache::MeasurementRecord>& earlier, int finalists,
                               const Problem& problem, const DeviceInfo& device) {
    ResumePlan plan;
    std::map<std::string, double> earlier_passed;  // each config's best time
    for (const auto& m : earlier) {
        if (m.outcome != cache::CandidateOutcome::Passed) {
            plan.settled.insert(m.config);
        } else {
            auto [it, fresh] = earlier_passed.emplace(m.config, m.time_ms);
            if (!fresh) it->second = std::min(it->second, m.time_ms);
        }
    }
    std::vector<std::pair<double, std::string>> by_time;
    for (const auto& [config, ms] : earlier_passed) by_time.emplace_back(ms, config);
    std::sort(by_time.begin(), by_time.end());
    const std::size_t best_few = std::min(by_time.size(), static_cast<std::size_t>(std::max(finalists, 0)));
    for (std::size_t i = best_few; i < by_time.size(); ++i) plan.settled.insert(by_time[i].second);

    std::set<std::string> listed;
    for (const AnyConfig& config : candidates) {
        const std::string name = to_string(config);
        listed.insert(name);
        if (plan.settled.count(name)) ++plan.settled_candidates;
        else plan.to_measure.push_back(config);
    }
    for (std::size_t i = 0; i < best_few; ++i) {
        const std::string& name = by_time[i].second;
        if (plan.settled.count(name) || listed.count(name)) continue;  // failed as well, or measured above
        // A name this build no longer parses, or that no longer fits the problem, is left out.
        if (const auto config = parse_config(name); config && !validate(*config, problem, device))
            plan.to_measure.push_back(*config);
    }
    return plan;
}

}  // namespace jitgemm

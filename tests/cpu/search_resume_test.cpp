// Resuming a search from the measurements on record (tuner/search_resume.h): failures stay settled, the passed beyond
// the best few too, and the best few are measured again even where this search does not enumerate them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/device_profiles.h"
#include "tuner/families/registry.h"
#include "tuner/search_resume.h"

namespace jitgemm {
namespace {

cache::MeasurementRecord on_record(const AnyConfig& config, cache::CandidateOutcome outcome, double ms) {
    cache::MeasurementRecord m;
    m.config = to_string(config);
    m.outcome = outcome;
    m.time_ms = ms;
    return m;
}

std::vector<std::string> names(const std::vector<AnyConfig>& configs) {
    std::vector<std::string> out;
    for (const AnyConfig& c : configs) out.push_back(to_string(c));
    return out;
}

class SearchResume : public ::testing::Test {
protected:
    void SetUp() override {
        problem_.m = 96;
        problem_.n = 1536;
        problem_.k = 512;
        problem_.lda = 96;
        problem_.ldb = 512;
        problem_.ldc = 96;
        all_ = enumerate_candidates(problem_, device_);
        ASSERT_GE(all_.size(), 12u);
        candidates_.assign(all_.begin(), all_.begin() + 6);  // this search's; all_[6...] stand for refinements
    }
    const DeviceInfo device_ = testing::h200_profile();
    Problem problem_;
    std::vector<AnyConfig> all_, candidates_;
};

TEST_F(SearchResume, NothingOnRecordMeasuresEveryCandidateInOrder) {
    const ResumePlan plan = plan_resumed_search(candidates_, {}, 3, problem_, device_);
    EXPECT_EQ(names(plan.to_measure), names(candidates_));
    EXPECT_TRUE(plan.settled.empty());
    EXPECT_EQ(plan.settled_candidates, 0);
}

TEST_F(SearchResume, FailuresAndThePassedBeyondTheBestFewAreSettled) {
    using cache::CandidateOutcome;
    const std::vector<cache::MeasurementRecord> earlier = {
        on_record(candidates_[1], CandidateOutcome::LaunchFailed, 0.0),
        on_record(candidates_[2], CandidateOutcome::Passed, 0.05),
        on_record(candidates_[3], CandidateOutcome::Passed, 0.06),
        on_record(candidates_[4], CandidateOutcome::Passed, 0.07),
        on_record(candidates_[5], CandidateOutcome::Passed, 0.08),
        on_record(candidates_[5], CandidateOutcome::Passed, 0.04),  // measured twice: its best time counts
    };
    const ResumePlan plan = plan_resumed_search(candidates_, earlier, 3, problem_, device_);
    // The best three (5 at 0.04, 2, 3) and the unmeasured 0 are measured; 1 failed, 4 is beyond the best three.
    EXPECT_EQ(names(plan.to_measure),
              names({candidates_[0], candidates_[2], candidates_[3], candidates_[5]}));
    EXPECT_EQ(plan.settled_candidates, 2);
    EXPECT_EQ(plan.settled.count(to_string(candidates_[1])), 1u);
    EXPECT_EQ(plan.settled.count(to_string(candidates_[4])), 1u);
}

// The killed-tuner case: the earlier search's best were refinements around its winner, which this search does not
// enumerate; every candidate it does enumerate is settled. The best few are measured all the same, so the search has
// finalists and a winner.
TEST_F(SearchResume, TheEarlierBestAreMeasuredAgainWhereThisSearchDoesNotEnumerateThem) {
    using cache::CandidateOutcome;
    std::vector<cache::MeasurementRecord> earlier;
    for (std::size_t i = 0; i < candidates_.size(); ++i)
        earlier.push_back(on_record(candidates_[i], CandidateOutcome::Passed, 0.10 + 0.01 * double(i)));
    earlier.push_back(on_record(all_[6], CandidateOutcome::Passed, 0.03));  // refinements, faster
    earlier.push_back(on_record(all_[7], CandidateOutcome::Passed, 0.02));
    earlier.push_back(on_record(all_[8], CandidateOutcome::Passed, 0.01));
    earlier.push_back(on_record(all_[9], CandidateOutcome::Incorrect, 0.0));
    const ResumePlan plan = plan_resumed_search(candidates_, earlier, 3, problem_, device_);
    EXPECT_EQ(plan.settled_candidates, 6);
    EXPECT_EQ(names(plan.to_measure), names({all_[8], all_[7], all_[6]}));  // fastest first
    EXPECT_EQ(plan.settled.count(to_string(all_[9])), 1u);
}

TEST_F(SearchResume, AnEarlierBestThatNoLongerParsesOrFitsIsLeftOut) {
    using cache::CandidateOutcome;
    cache::MeasurementRecord unknown;
    unknown.config = "a_family_of_another_build_64x64";
    unknown.outcome = CandidateOutcome::Passed;
    unknown.time_ms = 0.001;
    const std::vector<cache::MeasurementRecord> earlier = {unknown, on_record(all_[7], CandidateOutcome::Passed, 0.02),
                                                           on_record(candidates_[0], CandidateOutcome::Passed, 0.5)};
    const ResumePlan plan = plan_resumed_search(candidates_, earlier, 2, problem_, device_);
    // The best two are the unknown name (left out) and all_[7]; candidates_[0] is beyond them and settled.
    EXPECT_EQ(names(plan.to_measure),
              names({candidates_[1], candidates_[2], candidates_[3], candidates_[4], candidates_[5], all_[7]}));
    EXPECT_EQ(plan.settled_candidates, 1);
}

}  // namespace
}  // namespace jitgemm

// main() of the GPU tests: each test process gets a fresh, empty tuning cache (unless JITGEMM_CACHE is set), so tests
// never see one another's tuning results or the user's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
    std::string temporary;
    if (std::getenv("JITGEMM_CACHE") == nullptr) {
        std::string pattern = (std::filesystem::temp_directory_path() / "jitgemm-gpu-test-XXXXXX").string();
        if (mkdtemp(pattern.data()) != nullptr) {
            temporary = pattern;
            setenv("JITGEMM_CACHE", temporary.c_str(), 1);
        }
    }
    ::testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    if (!temporary.empty()) std::filesystem::remove_all(temporary);
    return status;
}

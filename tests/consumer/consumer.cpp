// What a program of another project sees of jitgemm: the headers' version macros agree with the library it runs,
// an error thrown inside the library is caught by type and code in the program (across a shared library's
// boundary too), and the names of the public enums resolve. Needs no GPU: the failing call is refused before the
// driver is touched. Exit status 0 when all hold.
#include <jitgemm/jitgemm.h>

#include <cstdio>
#include <string>

int main() {
    int failures = 0;
    const std::string headers = JITGEMM_VERSION_STRING;
    const std::string library(jitgemm::version());
    std::printf("jitgemm headers %s, library %s\n", headers.c_str(), library.c_str());
    if (headers != library) ++failures;
#if JITGEMM_VERSION_NUMBER < 100
    ++failures;  // 0.1.0 or later
#endif
    try {
        jitgemm::sgemm(jitgemm::Order::ColumnMajor, jitgemm::Transpose::No, jitgemm::Transpose::No, -1, 4, 4, 1.0f,
                       nullptr, 4, nullptr, 4, 0.0f, nullptr, 4);
        std::printf("a negative size was accepted\n");
        ++failures;
    } catch (const jitgemm::Error& e) {
        std::printf("refused as expected (%s): %s\n", std::string(jitgemm::to_string(e.code())).c_str(), e.what());
        if (e.code() != jitgemm::ErrorCode::InvalidArgument) ++failures;
    }
    if (jitgemm::to_string(jitgemm::ServedBy::InMemory).empty()) ++failures;
    if (jitgemm::statistics().nvrtc_compiles != 0) ++failures;
    std::printf("%s\n", failures == 0 ? "consumer: ok" : "consumer: FAILED");
    return failures == 0 ? 0 : 1;
}

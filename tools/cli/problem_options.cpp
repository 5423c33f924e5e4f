// Problem flags and manifests on the command line.
#include "tools/cli/problem_options.h"

#include <iomanip>
#include <sstream>
#include <utility>

#include "jitgemm/error.h"
#include "tools/manifest/manifest_fields.h"

namespace jitgemm::cli {

namespace po = boost::program_options;

void add_problem_options(po::options_description& options) {
    options.add_options()
        ("manifest", po::value<std::string>(), "problems from a shape manifest (.csv or .json)")
        ("m", po::value<std::string>(), "one problem: rows of op(A) and C; or a range FIRST-LAST, e.g. 1-8192, for the "
                                        "sizes of a layer whose M changes every call: FIRST, the powers of two "
                                        "between, and LAST (tune also stores the run-time-shape variant of each "
                                        "winner, which serves every M between without compiling)")
        ("n", po::value<std::int64_t>(), "one problem: columns of op(B) and C")
        ("k", po::value<std::int64_t>(), "one problem: columns of op(A), rows of op(B)")
        ("transa", po::value<std::string>()->default_value("n"), "n or t")
        ("transb", po::value<std::string>()->default_value("n"), "n or t")
        ("order", po::value<std::string>()->default_value("row"), "row or col (all four matrices)")
        ("dtype", po::value<std::string>()->default_value("f32"), "element type of A, B, C and D: f32, f16 or bf16")
        ("out-dtype", po::value<std::string>(), "element type of C and D (default: --dtype)")
        ("compute", po::value<std::string>()->default_value("f32"),
         "f32 (exact products) or tf32 (fp32 inputs may be rounded to TF32)")
        ("alpha", po::value<double>()->default_value(1.0), "alpha")
        ("beta", po::value<double>()->default_value(0.0), "beta")
        ("batch", po::value<std::int64_t>()->default_value(1), "batch count");
}

namespace {

// One problem of the flags, with rows `m`.
ManifestEntry entry_of_flags(const po::variables_map& vm, std::int64_t m) {
    // Each flag's value goes to the manifest's own field parser (manifest_fields.h), so the flags follow exactly the
    // manifest's rules and messages, without passing through CSV text (where "--transa n,t" became two cells).
    // `dtype` sets all four types; dtypeC and dtypeD, after it in the field table, override C and D with --out-dtype.
    const std::string dtype = vm["dtype"].as<std::string>();
    const std::string out_dtype = vm.count("out-dtype") ? vm["out-dtype"].as<std::string>() : dtype;
    const auto number = [](double value) {
        std::ostringstream text;
        text << std::setprecision(17) << value;
        return text.str();
    };
    const std::pair<const char*, std::string> flags[] = {
        {"M", std::to_string(m)},
        {"N", std::to_string(vm["n"].as<std::int64_t>())},
        {"K", std::to_string(vm["k"].as<std::int64_t>())},
        {"transA", vm["transa"].as<std::string>()},
        {"transB", vm["transb"].as<std::string>()},
        {"layout", vm["order"].as<std::string>()},
        {"dtype", dtype},
        {"dtypeC", out_dtype},
        {"dtypeD", out_dtype},
        {"compute", vm["compute"].as<std::string>()},
        {"alpha", number(vm["alpha"].as<double>())},
        {"beta", number(vm["beta"].as<double>())},
        {"batch", std::to_string(vm["batch"].as<std::int64_t>())},
    };
    manifest::RawProblem raw("the command line", 1);
    for (const auto& [field, text] : flags) {
        if (text.empty())
            throw Error(ErrorCode::InvalidArgument, std::string("jitgemm: the flag for ") + field + " is empty");
        raw.values[*manifest::find_field(field)] = manifest::RawValue{text, 1};
    }
    return manifest::make_entry(raw);
}

}  // namespace

std::vector<std::int64_t> m_values(const std::string& text) {
    const auto size = [&](const std::string& part) {
        std::size_t used = 0;
        long long value = -1;
        try {
            value = std::stoll(part, &used);
        } catch (const std::exception&) {
        }
        if (part.empty() || used != part.size() || value < 1)
            throw Error(ErrorCode::InvalidArgument, "jitgemm: --m \"" + text + "\" is not a size (a positive "
                                                    "integer) or a range of sizes FIRST-LAST");
        return static_cast<std::int64_t>(value);
    };
    const std::size_t dash = text.find('-');
    if (dash == std::string::npos) return {size(text)};
    const std::int64_t first = size(text.substr(0, dash)), last = size(text.substr(dash + 1));
    if (first >= last)
        throw Error(ErrorCode::InvalidArgument,
                    "jitgemm: --m \"" + text + "\": the range's first size must be below its last");
    std::vector<std::int64_t> sizes{first};
    for (std::int64_t power = 1; power < last; power *= 2)
        if (power > first) sizes.push_back(power);
    sizes.push_back(last);
    return sizes;
}

bool m_is_range(const po::variables_map& vm) {
    return vm.count("m") && !vm.count("manifest") && m_values(vm["m"].as<std::string>()).size() > 1;
}

std::vector<ManifestEntry> problem_entries(const po::variables_map& vm) {
    const bool one = vm.count("m") || vm.count("n") || vm.count("k");
    if (vm.count("manifest")) {
        if (one) throw Error(ErrorCode::InvalidArgument, "jitgemm: give either --manifest or --m/--n/--k, not both");
        return read_manifest(vm["manifest"].as<std::string>());
    }
    if (!(vm.count("m") && vm.count("n") && vm.count("k")))
        throw Error(ErrorCode::InvalidArgument, "jitgemm: name the problems: --manifest FILE, or --m, --n and --k");
    std::vector<ManifestEntry> entries;
    for (const std::int64_t m : m_values(vm["m"].as<std::string>())) entries.push_back(entry_of_flags(vm, m));
    return entries;
}

}  // namespace jitgemm::cli

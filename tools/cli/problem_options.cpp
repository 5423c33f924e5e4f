// Problem flags and manifests on the command line.
#include "tools/cli/problem_options.h"

#include <iomanip>
#include <sstream>

#include "jitgemm/error.h"

namespace jitgemm::cli {

namespace po = boost::program_options;

void add_problem_options(po::options_description& options) {
    options.add_options()
        ("manifest", po::value<std::string>(), "problems from a shape manifest (.csv or .json)")
        ("m", po::value<std::int64_t>(), "one problem: rows of op(A) and C")
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

std::vector<ManifestEntry> problem_entries(const po::variables_map& vm) {
    const bool one = vm.count("m") || vm.count("n") || vm.count("k");
    if (vm.count("manifest")) {
        if (one) throw Error(ErrorCode::InvalidArgument, "jitgemm: give either --manifest or --m/--n/--k, not both");
        return read_manifest(vm["manifest"].as<std::string>());
    }
    if (!(vm.count("m") && vm.count("n") && vm.count("k")))
        throw Error(ErrorCode::InvalidArgument, "jitgemm: name the problems: --manifest FILE, or --m, --n and --k");
    // The flags are parsed by the manifest reader, so they follow exactly its rules and messages. `dtype` sets all
    // four types and dtypeC/dtypeD, which come after it in the field table, override C and D with --out-dtype.
    const std::string dtype = vm["dtype"].as<std::string>();
    const std::string out_dtype = vm.count("out-dtype") ? vm["out-dtype"].as<std::string>() : dtype;
    std::ostringstream csv;
    csv << std::setprecision(17) << "M,N,K,transA,transB,layout,dtype,dtypeC,dtypeD,compute,alpha,beta,batch\n"
        << vm["m"].as<std::int64_t>() << "," << vm["n"].as<std::int64_t>() << "," << vm["k"].as<std::int64_t>() << ","
        << vm["transa"].as<std::string>() << "," << vm["transb"].as<std::string>() << ","
        << vm["order"].as<std::string>() << "," << dtype << "," << out_dtype << "," << out_dtype << ","
        << vm["compute"].as<std::string>() << "," << vm["alpha"].as<double>() << "," << vm["beta"].as<double>()
        << "," << vm["batch"].as<std::int64_t>() << "\n";
    return parse_manifest(csv.str(), "command-line.csv");
}

}  // namespace jitgemm::cli

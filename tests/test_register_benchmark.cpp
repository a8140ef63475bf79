// A new benchmark is one file (docs/development.md): this file defines a tiny one on the benchmarks' framework
// ("bench_tiny": a few timed products of H on a 2 x 1 x 1-cell box), its options declared once (BenchOptions), its
// CSV by declared columns (CsvColumns), its target judged by Targets.hpp. Its main would be the one line at the end
// of the benchmark; here it runs as that main runs it, on 1, 2 and 3 ranks: -help lists every option with its
// default, the CSV has the declared columns and one row per measurement, the verdict follows from the measured values
// alone (whatever they are: nothing is asserted on a time), and a bad value is one line naming its option.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "BenchOptions.hpp"
#include "CsvColumns.hpp"
#include "SystemProbes.hpp"
#include "Targets.hpp"
#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"
#include "support/Help.hpp"
#include "support/OptionLists.hpp"
#include "support/PetscHandle.hpp"
#include "support/TextFile.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;

namespace {

// ---- the benchmark: all of it ----

struct TinySettings {
  PetscInt cells = 0, products = 0;
  PetscReal bound_ms = 0;
  std::string csv;
};

bench::BenchOptions TinyOptions(TinySettings *s) {
  return {{"-tiny_cells", "Length of the box in cells (n x 1 x 1, open)", "2", &s->cells},
          {"-tiny_products", "Timed products of H (at least 1)", "3", &s->products},
          {"-tiny_bound_ms", "Target: every product within this many ms", "1000", &s->bound_ms},
          bench::CsvFileOption(&s->csv, "Also write the products as CSV", "", "-tiny_csv")};
}

struct Product {
  int index = 0;
  double ms = 0;
};

const std::vector<bench::Column<Product>> kTinyColumns = {
    {"product", [](const Product &p) { return std::to_string(p.index); }},
    {"ms", [](const Product &p) { return bench::Text(p.ms, 17); }}};

PetscErrorCode RunTiny(MPI_Comm comm, int *) {
  TinySettings b;
  const bench::BenchOptions options = TinyOptions(&b);
  SystemSpec spec;
  TightBindingSystem sys;
  OwnedMat H;
  OwnedVec x, y;
  std::vector<Product> rows;
  std::vector<std::pair<double, std::string>> values;
  PetscFunctionBeginUser;
  PetscCall(bench::ReadBenchOptions(comm, "bench_tiny", options));
  PetscCheck(b.cells >= 1, comm, PETSC_ERR_USER_INPUT, "-tiny_cells: %" PetscInt_FMT "; at least 1", b.cells);
  PetscCheck(b.products >= 1, comm, PETSC_ERR_USER_INPUT, "-tiny_products: %" PetscInt_FMT "; at least 1", b.products);
  if (HelpRequested()) PetscFunctionReturn(0);
  spec.model.set = "klimeck2000";
  spec.cell.cells = {(int)b.cells, 1, 1};
  spec.cell.periodic = {false, false, false};
  PetscCall(PartitionSpecFromOptions(comm, &spec.partition));
  PetscCall(CreateTightBindingSystem(comm, spec, &sys));
  PetscCall(BuildStructure(comm, &sys));
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, spec.cell.k, HamiltonianOptions{}, H.out()));
  PetscCall(MatCreateVecs(H, x.out(), y.out()));
  PetscCall(VecSet(x, 1.0));
  for (int i = 0; i < (int)b.products; ++i) {
    double s;
    PetscCall(bench::TimeOnRanks(
        comm, [&] { return MatMult(H, x, y); }, &s));
    rows.push_back({i, 1e3 * s});
    values.emplace_back(1e3 * s, "product " + std::to_string(i));
  }
  PetscCall(PetscPrintf(comm, "bench_tiny: %d products of H (%" PetscInt_FMT " atoms)\n", (int)rows.size(),
                        sys.structure.total()));
  PetscCall(PetscPrintf(comm, "target: every product <= %g ms; %s\n", (double)b.bound_ms,
                        bench::AtMost(values, b.bound_ms).text("max ms").c_str()));
  if (!b.csv.empty()) PetscCall(WriteTextFile(comm, b.csv, bench::CsvText(kTinyColumns, rows, &options), "-tiny_csv"));
  PetscFunctionReturn(0);
}

// Its program would be this line (and `help`, a one-line description):
//   int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_tiny", RunTiny); }

// ---- running it as its main does, its printed lines kept ----

// RunTiny with `options` as its command line; what it printed (and -help's listing) into *out.
PetscErrorCode RunWith(const std::string &options, std::string *out) {
  int exit_code = 0;
  PetscErrorCode ierr;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsClear(nullptr));
  PetscCall(PetscOptionsInsertString(nullptr, options.c_str()));
  *out = tbpeta::test::CapturePrinted([&] { return RunTiny(PETSC_COMM_WORLD, &exit_code); }, &ierr);
  PetscCall(PetscOptionsClear(nullptr));
  PetscFunctionReturn(ierr);
}

std::vector<std::string> Lines(const std::string &path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

} // namespace

TEST(RegisterBenchmark, ATinyBenchmarkFromThisFileRunsLikeAProgram) {
  TBPETA_ASSERT_RANKS();
  const int rank = tbpeta::test::commRank(), size = tbpeta::test::commSize();
  // -help first: PETSc lists an options block once per process.
  std::string help;
  ASSERT_EQ(RunWith("-help", &help), 0);
  for (const char *line :
       {"  -tiny_cells <now 2 : formerly 2>: Length of the box in cells (n x 1 x 1, open) (bench_tiny)",
        "  -tiny_products <now 3 : formerly 3>: Timed products of H (at least 1) (bench_tiny)",
        "  -tiny_bound_ms <now 1000 : formerly 1000>:", "  -tiny_csv <now  : formerly >:"})
    EXPECT_NE(help.find(line), std::string::npos) << line << "\n" << help;
  EXPECT_EQ(help.find("bench_tiny: "), std::string::npos) << "-help runs nothing";

  // Runs: the CSV has the settings and the declared columns, one row per product; the verdict is the one the CSV's
  // measured values give, met or not (a bound no product can meet, and a generous one).
  const std::string csv = "test_register_benchmark_np" + std::to_string(size) + ".csv";
  for (const char *bound : {"0", "1e9"}) {
    std::string out;
    ASSERT_EQ(RunWith(std::string("-tiny_products 4 -tiny_bound_ms ") + bound + " -tiny_csv " + csv, &out), 0);
    MPI_Barrier(PETSC_COMM_WORLD);
    const auto lines = Lines(csv);
    ASSERT_EQ(lines.size(), 1u + 4) << csv;
    EXPECT_EQ(lines[0], "tiny_cells,tiny_products,tiny_bound_ms,tiny_csv,product,ms");
    std::vector<std::pair<double, std::string>> values;
    for (int i = 0; i < 4; ++i) {
      const auto fields = SplitList(lines[1 + i]);
      ASSERT_EQ(fields.size(), 6u) << lines[1 + i];
      EXPECT_EQ(fields[0], "2");
      EXPECT_EQ(fields[1], "4");
      EXPECT_EQ(fields[3], csv);
      EXPECT_EQ(fields[4], std::to_string(i));
      values.emplace_back(std::stod(fields[5]), "product " + std::to_string(i));
    }
    const bench::Verdict verdict = bench::AtMost(values, std::stod(bound));
    double worst = 0;
    for (const auto &v : values) worst = std::max(worst, v.first);
    EXPECT_EQ(verdict.met, worst <= std::stod(bound)); // decided from the measured values alone
    if (rank == 0) {
      EXPECT_NE(out.find("bench_tiny: 4 products of H (16 atoms)\n"), std::string::npos) << out;
      EXPECT_NE(out.find(std::string("target: every product <= ") + (bound[0] == '0' ? "0" : "1e+09") + " ms; " +
                         verdict.text("max ms") + "\n"),
                std::string::npos)
          << out;
    }
    MPI_Barrier(PETSC_COMM_WORLD);
  }
  if (rank == 0) std::filesystem::remove(csv);
  EXPECT_FALSE(bench::AtMost({}, 1.0).met); // nothing measured is never met

  // A bad value: one line naming the option, raised on every rank alike.
  for (const auto &[options, message] :
       {std::pair<const char *, const char *>{"-tiny_products x", "-tiny_products: 'x' is not an integer"},
        {"-tiny_bound_ms fast", "-tiny_bound_ms: 'fast' is not a number"},
        {"-tiny_csv", "-tiny_csv: needs a value (default: none)"},
        {"-tiny_products 0", "-tiny_products: 0; at least 1"}}) {
    std::string text, out;
    EXPECT_EQ(tbpeta::test::FirstMessage([&] { return RunWith(options, &out); }, &text), PETSC_ERR_USER_INPUT)
        << options;
    EXPECT_EQ(text, message);
    EXPECT_TRUE(out.empty()) << out;
  }
  std::string text, out; // its CSV is checked before the work
  EXPECT_EQ(tbpeta::test::FirstMessage([&] { return RunWith("-tiny_csv products.txt", &out); }, &text),
            PETSC_ERR_USER_INPUT);
  EXPECT_EQ(text.rfind("-tiny_csv products.txt: ", 0), 0u) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << text;
}

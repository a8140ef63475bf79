// Tests of the HDF5 and XDMF output: every rank writes its own, interleaved rows and its own parts of the states;
// rank 0 reads the file back with the HDF5 C API (and with h5py) and checks every value, shape, type and attribute;
// the densities and vectors are defined in canonical order, so the same values are expected on any number of ranks;
// bad paths are refused up front and failures leave no file behind; app/plot_states.py plots a written file.
#include <hdf5.h>
#include <petscvec.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "io/OutputPath.hpp"
#include "io/ResultsFile.hpp"
#include "io/XdmfFile.hpp"
#include "study/ComparisonReport.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

// A per-test scratch directory made by rank 0 and shared by all ranks; removed at the end.
class ScratchDir {
public:
  ScratchDir() {
    std::string path;
    if (tbpeta::test::commRank() == 0) {
      char tmpl[] = "/tmp/tbpeta-h5-XXXXXX";
      if (mkdtemp(tmpl)) path = tmpl;
    }
    unsigned long n = path.size();
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG, 0, PETSC_COMM_WORLD);
    path.resize(n);
    MPI_Bcast(path.data(), static_cast<int>(n), MPI_CHAR, 0, PETSC_COMM_WORLD);
    path_ = path;
  }
  ~ScratchDir() {
    MPI_Barrier(PETSC_COMM_WORLD);
    if (tbpeta::test::commRank() == 0 && !path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  const std::string &path() const { return path_; }
  // Names of the entries in the directory, sorted (rank 0's view).
  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    for (const auto &e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

private:
  std::string path_;
};

// The structure used by the tests: total atoms, canonical atom i has these values, and owner(i) is its rank.
double Position(PetscInt i, int c) { return c == 0 ? i + 0.25 : c == 1 ? -2.0 * i : 1e-3 * i * i + 1.0 / 3.0; }
int Species(PetscInt i) { return static_cast<int>(i % 3); }
int Material(PetscInt i) { return static_cast<int>((i / 4) % 2); }

// Interleaved ownership; on 3 ranks rank 1 owns nothing.
int InterleavedOwner(PetscInt i, int size) { return size == 3 ? (i % 2 == 0 ? 0 : 2) : static_cast<int>(i % size); }
// Contiguous blocks (rank r owns [r*N/size, (r+1)*N/size)).
std::function<int(PetscInt, int)> BlockOwner(PetscInt total) {
  return [total](PetscInt i, int size) { return static_cast<int>(i * size / total); };
}

struct OwnedAtoms {
  std::vector<PetscInt> index;
  std::vector<double> positions;
  std::vector<int> species, material;
  tbpeta::AtomsForOutput atoms;
};

// This rank's atoms, in DEScending canonical order (the writer must sort them).
void MakeAtoms(PetscInt total, const std::function<int(PetscInt, int)> &owner, OwnedAtoms *o) {
  const int rank = tbpeta::test::commRank(), size = tbpeta::test::commSize();
  for (PetscInt i = total - 1; i >= 0; --i) {
    if (owner(i, size) != rank) continue;
    o->index.push_back(i);
    for (int c = 0; c < 3; ++c) o->positions.push_back(Position(i, c));
    o->species.push_back(Species(i));
    o->material.push_back(Material(i));
  }
  o->atoms.canonical_index = o->index;
  o->atoms.positions_nm = o->positions;
  o->atoms.species = o->species;
  o->atoms.material = o->material;
  o->atoms.total_atoms = total;
  o->atoms.species_names = {"Ga", "As", "In"};
  o->atoms.material_names = {"GaAs", "InAs"};
}

const std::vector<double> kEigenvalues = {3.5, -1.25, 0.0, 2.0, -7.5, 1e-12};
const std::string kOptions =
    "-params jancu -material GaAs -output out.h5 -unit \xc2\xb5m"; // with a non-ASCII (UTF-8) character
const std::vector<std::pair<std::string, std::string>> kRootAttributes = {
    {"tbpeta_version", "0.1.0"}, {"parameter_set", "jancu"}, {"empty", ""}};
const tbpeta::NamedValues kRootValues = {{"gap_center", 0.7625}};
const tbpeta::SolverForOutput kSolver = {
    "lanczos (test) \xce\xbb", {{"products", 412}, {"iterations", 200}, {"seconds", 1.5}, {"lanczos_steps", 200}}};
// Rows of a comparison: the solve's record, then the comparison's fields.
tbpeta::ComparisonRow Row(const char *solver, const char *run, PetscInt states, PetscInt products, PetscInt iterations,
                          PetscInt vectors, double seconds, double rss) {
  tbpeta::ComparisonRow r;
  r.solver = solver, r.run = run, r.values.assign((size_t)states, 0.5), r.requested = 8, r.products = products,
  r.iterations = iterations;
  r.vectors_held = vectors, r.seconds = seconds, r.peak_rss_mb = rss;
  return r;
}
const std::vector<tbpeta::ComparisonRow> kCompare = [] {
  std::vector<tbpeta::ComparisonRow> rows = {
      Row("lanczos", "lanczos", 8, 1200, 600, 5, 1.25, 90.5),
      Row("slepc krylovschur harmonic", "ks_harmonic", 6, 4000, 40, 41, 3.5, 150),
      Row("slepc krylovschur + sinvert", "sinvert", 0, 0, 0, 0, 0, 0)};
  rows[0].max_deviation = 0.0, rows[0].max_residual = 2e-9, rows[0].center = 0.75, rows[0].solver_mb = 3.5,
  rows[0].reference = true, rows[0].levels_compared = 4;
  rows[0].splits_at_centre = true;
  rows[1].max_residual = 1e-10, rows[1].converged = false,
  rows[1].note = "not converged within 4000 products \xe2\x80\x94 capped", rows[1].solver_mb = 20,
  rows[1].levels_compared = 3;
  rows[2].note = "skipped: H has more than 30000 rows", rows[2].skipped = true, rows[2].requested = 0,
  rows[2].vectors_held = 0;
  return rows;
}();
// The comparison as the application writes it: a table of the caller's.
const std::vector<tbpeta::TableForOutput> kTables = {tbpeta::ComparisonTable(kCompare)};

// The residual written with eigenvalue e (so that the order can be checked after sorting).
double Residual(double e) { return 1e-9 * (1 + std::fabs(e)); }

// Amplitude of canonical row `row` of state k before normalisation: complex, different in every row and state.
PetscScalar Amplitude(int k, PetscInt row) {
  return PetscCMPLX(std::cos(0.7 * row + k) + 1.5, std::sin(0.3 * row * (k + 1)));
}

// Caller's index of each state in file (ascending energy) order.
std::vector<int> SortedOrder(const std::vector<double> &values) {
  std::vector<int> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values[a] < values[b]; });
  return order;
}

// The states handed to the writer: eigenvalues (unsorted), residuals, and optionally unit vectors built from
// Amplitude() on this rank's atoms (block_size rows per atom, in the atoms' local order).
class TestStates {
public:
  explicit TestStates(std::vector<double> values) : values_(std::move(values)) {
    for (double e : values_) residuals_.push_back(Residual(e));
    Update();
  }
  ~TestStates() { DestroyVectors(); }
  TestStates(const TestStates &) = delete;
  TestStates &operator=(const TestStates &) = delete;

  void AddVectors(const OwnedAtoms &o, int bs, bool write_vectors) {
    for (int k = 0; k < static_cast<int>(values_.size()); ++k) {
      Vec x;
      PetscScalar *a;
      const PetscInt owned = static_cast<PetscInt>(o.index.size());
      ASSERT_EQ(VecCreateMPI(PETSC_COMM_WORLD, owned * bs, o.atoms.total_atoms * bs, &x), 0);
      ASSERT_EQ(VecGetArray(x, &a), 0);
      for (PetscInt i = 0; i < owned; ++i)
        for (int b = 0; b < bs; ++b) a[i * bs + b] = Amplitude(k, o.index[i] * bs + b);
      ASSERT_EQ(VecRestoreArray(x, &a), 0);
      ASSERT_EQ(VecNormalize(x, nullptr), 0);
      vectors_.push_back(x);
    }
    states.block_size = bs;
    states.write_vectors = write_vectors;
    Update();
  }
  void DestroyVectors() {
    for (Vec &x : vectors_) VecDestroy(&x);
    vectors_.clear();
    Update();
  }
  std::vector<double> &residuals() { return residuals_; }
  std::vector<Vec> &vectors() { return vectors_; }
  void Update() {
    states.eigenvalues = values_;
    states.residuals = residuals_;
    states.vector = nullptr;
    if (!vectors_.empty()) states.vector = [this](size_t k, Vec x) { return VecCopy(vectors_.at(k), x); };
  }
  tbpeta::StatesForOutput states;

private:
  std::vector<double> values_, residuals_;
  std::vector<Vec> vectors_;
};

// ---- reading back with the HDF5 C API (rank 0) ----

std::vector<hsize_t> Shape(hid_t dset) {
  hid_t space = H5Dget_space(dset);
  int ndims = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(ndims > 0 ? ndims : 0);
  if (ndims > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  return dims;
}

bool HasType(hid_t dset, hid_t expected) {
  hid_t type = H5Dget_type(dset);
  bool ok = H5Tequal(type, expected) > 0;
  H5Tclose(type);
  return ok;
}

// Variable-length UTF-8 string type for reading.
hid_t Utf8Type() {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

// Checks that a file type is a variable-length UTF-8 string.
void ExpectUtf8(hid_t ftype, const std::string &what) {
  EXPECT_EQ(H5Tget_class(ftype), H5T_STRING) << what;
  EXPECT_GT(H5Tis_variable_str(ftype), 0) << what;
  EXPECT_EQ(H5Tget_cset(ftype), H5T_CSET_UTF8) << what;
}

// Reads a scalar string attribute; checks that it is a variable-length UTF-8 string.
std::string ReadStringAttribute(hid_t object, const char *name) {
  std::string value = "<missing>";
  hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) return value;
  hid_t ftype = H5Aget_type(attr), space = H5Aget_space(attr), mtype = Utf8Type();
  ExpectUtf8(ftype, name);
  EXPECT_EQ(H5Sget_simple_extent_type(space), H5S_SCALAR) << name;
  char *s = nullptr;
  if (H5Aread(attr, mtype, &s) >= 0 && s) {
    value = s;
    H5free_memory(s);
  }
  H5Tclose(mtype);
  H5Tclose(ftype);
  H5Sclose(space);
  H5Aclose(attr);
  return value;
}

// Reads a scalar float64 attribute (NaN when missing or of another type).
double ReadNumberAttribute(hid_t object, const char *name) {
  double value = std::nan("");
  hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) return value;
  hid_t type = H5Aget_type(attr), space = H5Aget_space(attr);
  if (H5Tequal(type, H5T_IEEE_F64LE) > 0 && H5Sget_simple_extent_type(space) == H5S_SCALAR) {
    EXPECT_GE(H5Aread(attr, H5T_NATIVE_DOUBLE, &value), 0) << name;
  }
  H5Tclose(type);
  H5Sclose(space);
  H5Aclose(attr);
  return value;
}

herr_t CollectName(hid_t, const char *name, const H5A_info_t *, void *data) {
  static_cast<std::vector<std::string> *>(data)->push_back(name);
  return 0;
}

std::vector<std::string> AttributeNames(hid_t object) {
  std::vector<std::string> names;
  H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, CollectName, &names);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> LinkNames(hid_t group) {
  std::vector<std::string> names;
  H5Literate(
      group, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char *name, const H5L_info_t *, void *data) -> herr_t {
        static_cast<std::vector<std::string> *>(data)->push_back(name);
        return 0;
      },
      &names);
  return names;
}

template <typename T>
std::vector<T> ReadAll(hid_t dset, hid_t mem_type, std::size_t count) {
  std::vector<T> v(count);
  if (count) EXPECT_GE(H5Dread(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0);
  return v;
}

// Dataset `name` of loc read whole, after checking its file type and shape (empty when missing).
template <typename T>
std::vector<T> ReadDataset(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                           const std::vector<hsize_t> &shape) {
  hid_t dset = H5Dopen2(loc, name, H5P_DEFAULT);
  EXPECT_GE(dset, 0) << name;
  if (dset < 0) return {};
  EXPECT_TRUE(HasType(dset, file_type)) << name;
  EXPECT_EQ(Shape(dset), shape) << name;
  std::size_t count = 1;
  for (hsize_t n : shape) count *= n;
  auto v = ReadAll<T>(dset, mem_type, Shape(dset) == shape ? count : 0);
  H5Dclose(dset);
  return v;
}

std::vector<std::string> ReadStrings(hid_t loc, const char *name, hsize_t n) {
  std::vector<std::string> out;
  hid_t dset = H5Dopen2(loc, name, H5P_DEFAULT);
  EXPECT_GE(dset, 0) << name;
  if (dset < 0) return out;
  hid_t ftype = H5Dget_type(dset), space = H5Dget_space(dset), mtype = Utf8Type();
  ExpectUtf8(ftype, name);
  EXPECT_EQ(Shape(dset), std::vector<hsize_t>{n}) << name;
  std::vector<char *> p(n, nullptr);
  if (n && H5Dread(dset, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()) >= 0) {
    for (char *s : p) out.push_back(s ? s : "");
    H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, p.data());
  }
  H5Tclose(mtype);
  H5Tclose(ftype);
  H5Sclose(space);
  H5Dclose(dset);
  return out;
}

// What a file is expected to hold besides the structure.
struct Expected {
  PetscInt total = 0;
  std::vector<double> eigenvalues = kEigenvalues; // in the caller's order
  int block_size = 0;                             // > 0: densities of unit vectors built from Amplitude()
  bool vectors = false;                           // states/vectors as well
  bool extras = false;                            // kRootValues, kSolver and kCompare were given
};

// Checks states/density (and states/vectors) against Amplitude(): state j of the file is the caller's state order[j].
void VerifyDensities(hid_t group, const Expected &e) {
  const std::vector<int> order = SortedOrder(e.eigenvalues);
  const hsize_t n = order.size(), N = static_cast<hsize_t>(e.total), bs = static_cast<hsize_t>(e.block_size);
  const auto density = ReadDataset<double>(group, "density", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n, N});
  const auto vectors = e.vectors
                           ? ReadDataset<double>(group, "vectors", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n, N * bs, 2})
                           : std::vector<double>{};
  if (density.size() != n * N || (e.vectors && vectors.size() != n * N * bs * 2)) return;
  for (hsize_t j = 0; j < n; ++j) {
    double norm2 = 0, sum = 0;
    for (PetscInt r = 0; r < static_cast<PetscInt>(N * bs); ++r) norm2 += std::norm(Amplitude(order[j], r));
    for (hsize_t c = 0; c < N; ++c) {
      double expected = 0;
      for (hsize_t b = 0; b < bs; ++b) {
        const PetscScalar a = Amplitude(order[j], static_cast<PetscInt>(c * bs + b));
        expected += std::norm(a) / norm2;
        if (!e.vectors) continue;
        const double *v = &vectors[2 * ((j * N + c) * bs + b)];
        EXPECT_NEAR(v[0], PetscRealPart(a) / std::sqrt(norm2), 1e-14) << "state " << j << " row " << c * bs + b;
        EXPECT_NEAR(v[1], PetscImaginaryPart(a) / std::sqrt(norm2), 1e-14) << "state " << j << " row " << c * bs + b;
      }
      EXPECT_NEAR(density[j * N + c], expected, 1e-14) << "state " << j << " atom " << c;
      sum += density[j * N + c];
    }
    EXPECT_NEAR(sum, 1.0, 1e-12) << "state " << j;
  }
}

// Checks every value, shape, type and attribute of a file written from MakeAtoms(e.total, ...), e's states, kOptions
// and kRootAttributes (and with e.extras kRootValues, kSolver and kCompare).
void VerifyFile(const std::string &path, const Expected &e) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  const hsize_t n = e.eigenvalues.size(), N = static_cast<hsize_t>(e.total);

  // Root: attributes and links
  std::vector<std::string> expected_names = {"options"};
  for (const auto &[k, v] : kRootAttributes) expected_names.push_back(k);
  if (e.extras)
    for (const auto &[k, v] : kRootValues) expected_names.push_back(k);
  std::sort(expected_names.begin(), expected_names.end());
  EXPECT_EQ(AttributeNames(file), expected_names);
  EXPECT_EQ(ReadStringAttribute(file, "options"), kOptions);
  for (const auto &[k, v] : kRootAttributes) EXPECT_EQ(ReadStringAttribute(file, k.c_str()), v) << k;
  if (e.extras) {
    for (const auto &[k, v] : kRootValues) EXPECT_EQ(ReadNumberAttribute(file, k.c_str()), v) << k;
  }
  EXPECT_EQ(LinkNames(file), e.extras
                                 ? (std::vector<std::string>{"compare", "eigenvalues", "solver", "states", "structure"})
                                 : (std::vector<std::string>{"eigenvalues", "states", "structure"}));

  // Eigenvalues and residuals, sorted together
  std::vector<double> sorted = e.eigenvalues, residuals;
  std::sort(sorted.begin(), sorted.end());
  for (double v : sorted) residuals.push_back(Residual(v));
  EXPECT_EQ(ReadDataset<double>(file, "eigenvalues", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n}), sorted);
  hid_t group = H5Gopen2(file, "states", H5P_DEFAULT);
  EXPECT_GE(group, 0);
  if (group >= 0) {
    EXPECT_EQ(ReadDataset<double>(group, "residuals", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n}), residuals);
    std::vector<std::string> links = {"residuals"};
    if (e.block_size) links.insert(links.begin(), "density");
    if (e.block_size && e.vectors) links.push_back("vectors");
    EXPECT_EQ(LinkNames(group), links);
    if (e.block_size) VerifyDensities(group, e);
    H5Gclose(group);
  }

  // Structure
  group = H5Gopen2(file, "structure", H5P_DEFAULT);
  EXPECT_GE(group, 0);
  if (group >= 0) {
    EXPECT_EQ(LinkNames(group), (std::vector<std::string>{"index", "material", "positions", "species"}));
    auto v = ReadDataset<double>(group, "positions", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {N, 3});
    for (hsize_t i = 0; i < v.size() / 3; ++i)
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(v[3 * i + c], Position(static_cast<PetscInt>(i), c)) << "atom " << i << " coordinate " << c;
    const char *names[3] = {"species", "material", "index"};
    const char *expected[2] = {"Ga,As,In", "GaAs,InAs"};
    for (int k = 0; k < 3; ++k) {
      auto values = ReadDataset<int32_t>(group, names[k], H5T_STD_I32LE, H5T_NATIVE_INT32, {N});
      for (hsize_t i = 0; i < values.size(); ++i) {
        const PetscInt atom = static_cast<PetscInt>(i);
        EXPECT_EQ(values[i], k == 0 ? Species(atom) : k == 1 ? Material(atom) : atom) << names[k] << " of atom " << i;
      }
      hid_t dset = H5Dopen2(group, names[k], H5P_DEFAULT);
      if (k < 2) {
        EXPECT_EQ(AttributeNames(dset), std::vector<std::string>{"names"}) << names[k];
        EXPECT_EQ(ReadStringAttribute(dset, "names"), expected[k]) << names[k];
      } else {
        EXPECT_TRUE(AttributeNames(dset).empty());
      }
      H5Dclose(dset);
    }
    hid_t dset = H5Dopen2(group, "positions", H5P_DEFAULT);
    EXPECT_TRUE(AttributeNames(dset).empty());
    H5Dclose(dset);
    H5Gclose(group);
  }

  if (e.extras) {
    // Solver: name and counters as attributes
    group = H5Gopen2(file, "solver", H5P_DEFAULT);
    EXPECT_GE(group, 0);
    std::vector<std::string> counters = {"name"};
    for (const auto &[k, v] : kSolver.counters) counters.push_back(k);
    std::sort(counters.begin(), counters.end());
    EXPECT_EQ(AttributeNames(group), counters);
    EXPECT_EQ(ReadStringAttribute(group, "name"), kSolver.name);
    for (const auto &[k, v] : kSolver.counters) EXPECT_EQ(ReadNumberAttribute(group, k.c_str()), v) << k;
    H5Gclose(group);

    // Comparison table: one entry per row in every column
    group = H5Gopen2(file, "compare", H5P_DEFAULT);
    const hsize_t rows = kCompare.size();
    EXPECT_EQ(LinkNames(group).size(), 18u);
    using Row = tbpeta::ComparisonRow;
    using Text = std::string Row::*;
    for (auto [name, field] : std::initializer_list<std::pair<const char *, Text>>{
             {"solver", &Row::solver}, {"run", &Row::run}, {"note", &Row::note}}) {
      std::vector<std::string> expected;
      for (const Row &r : kCompare) expected.push_back(r.*field);
      EXPECT_EQ(ReadStrings(group, name, rows), expected) << name;
    }
    using Count = std::function<PetscInt(const Row &)>;
    for (auto [name, field] : std::initializer_list<std::pair<const char *, Count>>{
             {"states", [](const Row &r) { return r.states(); }},
             {"requested", [](const Row &r) { return r.requested; }},
             {"products", [](const Row &r) { return r.products; }},
             {"iterations", [](const Row &r) { return r.iterations; }},
             {"vectors_held", [](const Row &r) { return r.vectors_held; }},
             {"levels_compared", [](const Row &r) { return r.levels_compared; }}}) {
      std::vector<int64_t> expected;
      for (const Row &r : kCompare) expected.push_back(field(r));
      EXPECT_EQ(ReadDataset<int64_t>(group, name, H5T_STD_I64LE, H5T_NATIVE_INT64, {rows}), expected) << name;
    }
    using Real = double Row::*;
    for (auto [name, field] :
         std::initializer_list<std::pair<const char *, Real>>{{"max_deviation", &Row::max_deviation},
                                                              {"max_residual", &Row::max_residual},
                                                              {"seconds", &Row::seconds},
                                                              {"peak_rss_mb", &Row::peak_rss_mb},
                                                              {"solver_mb", &Row::solver_mb},
                                                              {"center", &Row::center}}) {
      const auto values = ReadDataset<double>(group, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {rows});
      for (hsize_t i = 0; i < values.size(); ++i) {
        const double expected = kCompare[i].*field;
        if (std::isnan(expected)) {
          EXPECT_TRUE(std::isnan(values[i])) << name << " " << i; // not computed: NaN
        } else {
          EXPECT_EQ(values[i], expected) << name << " " << i;
        }
      }
    }
    for (auto [name, field] :
         {std::pair{"converged", &Row::converged}, {"reference", &Row::reference}, {"skipped", &Row::skipped}}) {
      std::vector<int8_t> expected;
      for (const Row &r : kCompare) expected.push_back(r.*field ? 1 : 0);
      EXPECT_EQ(ReadDataset<int8_t>(group, name, H5T_STD_I8LE, H5T_NATIVE_INT8, {rows}), expected) << name;
    }
    H5Gclose(group);
  }
  EXPECT_GE(H5Fclose(file), 0);
}

std::string Slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::size_t Count(const std::string &s, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// The XDMF file beside `path` shows the N atoms and one density per state (n_density), all read from the HDF5 file
// by its name alone.
void VerifyXdmf(const std::string &path, PetscInt total, std::size_t n_density) {
  const std::string xmf = tbpeta::XdmfPath(path), N = std::to_string(total), h5 = fs::path(path).filename().string();
  ASSERT_EQ(xmf, path.substr(0, path.size() - 3) + ".xmf");
  const std::string text = Slurp(xmf);
  ASSERT_FALSE(text.empty()) << xmf;
  EXPECT_EQ(text.rfind("<?xml", 0), 0u);
  EXPECT_NE(text.find("<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" + N + "\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("<Geometry GeometryType=\"XYZ\">"), std::string::npos) << text;
  for (const char *dataset : {"/structure/index", "/structure/positions", "/structure/species", "/structure/material"})
    EXPECT_EQ(Count(text, ">" + h5 + ":" + dataset + "<"), 1u) << dataset << "\n" << text;
  EXPECT_EQ(Count(text, "Name=\"density_"), n_density) << text;
  EXPECT_EQ(Count(text, ">" + h5 + ":/states/density<"), n_density) << text;
  for (std::size_t i = 0; i < n_density; ++i) {
    EXPECT_NE(text.find("Name=\"density_" + std::to_string(i) + "\""), std::string::npos) << i;
    EXPECT_NE(text.find(">" + std::to_string(i) + " 0 1 1 1 " + N + "<"), std::string::npos)
        << i; // start, stride, count of row i
  }
  EXPECT_EQ(text.find(fs::path(path).parent_path().string()), std::string::npos)
      << "the HDF5 file is referred to without its directory";
}

// Writes with the given ownership and verifies on rank 0; the directory then holds only out.h5 and out.xmf.
void WriteAndVerify(PetscInt total, const std::function<int(PetscInt, int)> &owner) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.path() + "/out.h5";
  OwnedAtoms o;
  TestStates t(kEigenvalues);
  MakeAtoms(total, owner, &o);
  ASSERT_EQ(tbpeta::CheckOutputPath(PETSC_COMM_WORLD, path), 0);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, t.states, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() == 0) {
    VerifyFile(path, {.total = total});
    VerifyXdmf(path, total, 0);
    EXPECT_EQ(dir.Entries(), (std::vector<std::string>{"out.h5", "out.xmf"})); // no .tmp- file left
  }
}

// Writes states with vectors (block_size rows per atom), the solver and the comparison table; verifies on rank 0.
void WriteStatesAndVerify(PetscInt total, const std::function<int(PetscInt, int)> &owner, int bs, bool vectors) {
  ScratchDir dir;
  const std::string path = dir.path() + "/out.h5";
  OwnedAtoms o;
  TestStates t({2.0, -1.0, 0.5, -3.0, 0.5});
  MakeAtoms(total, owner, &o);
  t.AddVectors(o, bs, vectors);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, t.states, o.atoms, kOptions, kRootAttributes, kRootValues,
                                 kSolver, kTables),
            0);
  if (tbpeta::test::commRank() == 0) {
    VerifyFile(path, {.total = total,
                      .eigenvalues = {2.0, -1.0, 0.5, -3.0, 0.5},
                      .block_size = bs,
                      .vectors = vectors,
                      .extras = true});
    VerifyXdmf(path, total, 5);
    EXPECT_EQ(dir.Entries(), (std::vector<std::string>{"out.h5", "out.xmf"}));
  }
}

// Calls f with PETSc's error handler replaced by one that only returns the code (no trace is printed).
PetscErrorCode Quietly(const std::function<PetscErrorCode()> &f) {
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  PetscErrorCode ierr = f();
  PetscPopErrorHandler();
  return ierr;
}

std::string LastErrorMessage() {
  const char *text = nullptr;
  char *specific = nullptr;
  PetscErrorMessage(0, &text, &specific);
  return specific ? specific : "";
}

// Runs a shell command from rank 0 as a process of its own (the MPI launcher's variables removed); returns the exit
// code, with stdout and stderr in the given strings.
int RunCommand(const std::string &dir, const std::string &command, std::string *out, std::string *err) {
  const std::string o = dir + "/../stdout-" + fs::path(dir).filename().string(),
                    e = dir + "/../stderr-" + fs::path(dir).filename().string();
  const int status = std::system((tbpeta::test::CleanMpiEnvironment() + " " + command + " >" + o + " 2>" + e).c_str());
  *out = Slurp(o);
  *err = Slurp(e);
  fs::remove(o);
  fs::remove(e);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST(ResultsWriter, InterleavedOwnershipSmall) {
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(11, InterleavedOwner);
}

// Enough interleaved rows per rank that the writer uses point selections instead of a union of hyperslabs.
TEST(ResultsWriter, InterleavedOwnershipLarge) {
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(1201, InterleavedOwner);
}

TEST(ResultsWriter, BlockOwnership) {
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(50, BlockOwner(50));
}

// Fewer atoms than ranks: some ranks own nothing.
TEST(ResultsWriter, FewerAtomsThanRanks) {
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(1, InterleavedOwner);
}

// Densities (rows sum to 1), vectors, solver counters and the comparison table; the same values on any number of
// ranks and for any ownership, because the vectors are defined in canonical order.
TEST(ResultsWriter, StatesWithVectors) {
  TBPETA_ASSERT_RANKS();
  WriteStatesAndVerify(37, InterleavedOwner, 3, true);
  WriteStatesAndVerify(20, BlockOwner(20), 2, true);
  WriteStatesAndVerify(2, InterleavedOwner, 4, true); // fewer atoms than ranks
}

// Vectors given without write_vectors: densities only.
TEST(ResultsWriter, DensitiesWithoutVectors) {
  TBPETA_ASSERT_RANKS();
  WriteStatesAndVerify(301, InterleavedOwner, 10, false);
}

TEST(ResultsWriter, NoEigenvaluesAndNoAtoms) {
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/empty.h5";
  OwnedAtoms o;
  TestStates t({});
  MakeAtoms(0, InterleavedOwner, &o);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, t.states, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() == 0) {
    VerifyFile(path, {.total = 0, .eigenvalues = {}});
    VerifyXdmf(path, 0, 0);
    EXPECT_EQ(dir.Entries(), (std::vector<std::string>{"empty.h5", "empty.xmf"}));
  }
}

TEST(ResultsWriter, OverwritesExistingFile) {
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/out.h5";
  if (tbpeta::test::commRank() == 0) {
    std::ofstream(path) << "not an HDF5 file\n";
    std::ofstream(dir.path() + "/out.xmf") << "not an XDMF file\n";
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  OwnedAtoms o;
  MakeAtoms(7, InterleavedOwner, &o);
  TestStates first(kEigenvalues), second({-1.0, -2.0});
  first.AddVectors(o, 2, false);
  ASSERT_EQ(tbpeta::CheckOutputPath(PETSC_COMM_WORLD, path), 0);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, first.states, o.atoms, kOptions, kRootAttributes), 0);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, second.states, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() == 0) {
    VerifyFile(path, {.total = 7, .eigenvalues = {-1.0, -2.0}});
    VerifyXdmf(path, 7, 0); // the second file has no densities
    EXPECT_EQ(dir.Entries(), (std::vector<std::string>{"out.h5", "out.xmf"}));
  }
}

TEST(ResultsWriter, BadPathsAreRefused) {
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string d = dir.path();
  if (tbpeta::test::commRank() == 0) {
    std::ofstream(d + "/plain") << "a regular file\n";
    fs::create_directory(d + "/dir.h5");
    fs::create_directories(d + "/xdir.xmf/sub");
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  // (path, whether WriteResults cannot write there either: CheckOutputPath is stricter, e.g. about the suffix)
  const std::vector<std::pair<std::string, bool>> bad = {
      {d + "/missing/out.h5", true}, // directory does not exist
      {d + "/plain/out.h5", true},   // "directory" is a regular file
      {d + "/dir.h5", true},         // a directory, despite its name
      {d + "/xdir.h5", true},        // the XDMF file's name is taken by a directory
      {d, false},                    // a directory
      {d + "/out.txt", false},       // not .h5
      {d + "/out.h5.bak", false},    // not .h5
      {"", false},                   // nothing
  };
  OwnedAtoms o;
  TestStates t(kEigenvalues);
  MakeAtoms(5, InterleavedOwner, &o);
  for (const auto &[path, unwritable] : bad) {
    EXPECT_EQ(Quietly([&] { return tbpeta::CheckOutputPath(PETSC_COMM_WORLD, path); }), PETSC_ERR_USER_INPUT) << path;
    const std::string message = LastErrorMessage();
    EXPECT_EQ(message.rfind("-output " + path + ": ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    // Writing there fails as well and leaves nothing behind.
    if (unwritable)
      EXPECT_NE(Quietly([&] {
                  return tbpeta::WriteResults(PETSC_COMM_WORLD, path, t.states, o.atoms, kOptions, kRootAttributes);
                }),
                0)
          << path;
  }
  if (tbpeta::test::commRank() == 0) {
    EXPECT_EQ(dir.Entries(), (std::vector<std::string>{"dir.h5", "plain", "xdir.xmf"}));
    EXPECT_TRUE(fs::is_empty(d + "/dir.h5"));
  }
}

// A failure after the temporary files were written (PATH, or the XDMF file beside it, is a non-empty directory, so a
// final rename fails) removes the temporaries and the file already renamed.
TEST(ResultsWriter, FailedRenameLeavesNoFile) {
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  if (tbpeta::test::commRank() == 0)
    for (const char *taken : {"/taken.h5", "/other.xmf"}) {
      fs::create_directory(dir.path() + taken);
      std::ofstream(dir.path() + taken + "/keep") << "x\n";
    }
  MPI_Barrier(PETSC_COMM_WORLD);
  OwnedAtoms o;
  TestStates t(kEigenvalues);
  MakeAtoms(9, InterleavedOwner, &o);
  t.AddVectors(o, 2, true);
  for (const char *name : {"/taken.h5", "/other.h5"}) {
    const std::string path = dir.path() + name;
    EXPECT_EQ(Quietly([&] {
                return tbpeta::WriteResults(PETSC_COMM_WORLD, path, t.states, o.atoms, kOptions, kRootAttributes,
                                            kRootValues, kSolver, kTables);
              }),
              PETSC_ERR_FILE_WRITE);
    const std::string message = LastErrorMessage();
    EXPECT_NE(message.find("cannot write results to " + path + ": renaming "), std::string::npos) << message;
  }
  if (tbpeta::test::commRank() == 0) EXPECT_EQ(dir.Entries(), (std::vector<std::string>{"other.xmf", "taken.h5"}));
}

// Inconsistent input is refused, collectively, before any file is created.
TEST(ResultsWriter, InvalidInputIsRefused) {
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/out.h5";
  const int rank = tbpeta::test::commRank(), size = tbpeta::test::commSize();
  TestStates t(kEigenvalues);
  auto write = [&](const tbpeta::AtomsForOutput &atoms, const std::vector<std::pair<std::string, std::string>> &attrs,
                   const tbpeta::NamedValues &values = {}, const tbpeta::SolverForOutput &solver = {}) {
    return Quietly(
        [&] { return tbpeta::WriteResults(PETSC_COMM_WORLD, path, t.states, atoms, kOptions, attrs, values, solver); });
  };
  {
    OwnedAtoms o; // wrong total (the ranks own 10 atoms)
    MakeAtoms(10, InterleavedOwner, &o);
    o.atoms.total_atoms = 11;
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_WRONG);
  }
  {
    OwnedAtoms o; // out-of-range species on the last rank only
    MakeAtoms(10, BlockOwner(10), &o);
    if (rank == size - 1) o.species[0] = 3;
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_OUTOFRANGE);
    EXPECT_NE(LastErrorMessage().find("species 3"), std::string::npos) << LastErrorMessage();
  }
  {
    OwnedAtoms o; // duplicate index on rank 0
    MakeAtoms(10, BlockOwner(10), &o);
    if (rank == 0) o.index[1] = o.index[0]; // rank 0 owns at least 3 of the 10 atoms
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_WRONG);
    EXPECT_NE(LastErrorMessage().find("given twice"), std::string::npos) << LastErrorMessage();
  }
  {
    OwnedAtoms o; // wrong number of positions
    MakeAtoms(10, BlockOwner(10), &o);
    o.atoms.positions_nm = std::span<const double>(o.positions).first(o.positions.size() - (rank == 0 ? 1 : 0));
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_SIZ);
  }
  {
    OwnedAtoms o; // reserved or duplicate attribute and counter names, a name with a comma
    MakeAtoms(10, BlockOwner(10), &o);
    EXPECT_EQ(write(o.atoms, {{"options", "x"}}), PETSC_ERR_ARG_WRONG);
    EXPECT_EQ(write(o.atoms, {{"a", "x"}, {"a", "y"}}), PETSC_ERR_ARG_WRONG);
    EXPECT_EQ(write(o.atoms, kRootAttributes, {{"parameter_set", 1.0}}), PETSC_ERR_ARG_WRONG);
    EXPECT_EQ(write(o.atoms, kRootAttributes, {{"options", 1.0}}), PETSC_ERR_ARG_WRONG);
    EXPECT_EQ(write(o.atoms, kRootAttributes, {}, {"s", {{"name", 1.0}}}), PETSC_ERR_ARG_WRONG);
    EXPECT_EQ(write(o.atoms, kRootAttributes, {}, {"s", {{"steps", 1.0}, {"steps", 2.0}}}), PETSC_ERR_ARG_WRONG);
    EXPECT_NE(LastErrorMessage().find("solver counter 'steps'"), std::string::npos) << LastErrorMessage();
    o.atoms.species_names[1] = "As,P";
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_WRONG);
  }
  {
    OwnedAtoms o; // residuals that do not match the eigenvalues (rank 0's count)
    MakeAtoms(10, BlockOwner(10), &o);
    t.residuals().pop_back();
    t.Update();
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_SIZ);
    EXPECT_NE(LastErrorMessage().find("5 residuals for 6 eigenvalues"), std::string::npos) << LastErrorMessage();
    t.residuals().push_back(0);
    t.Update();
  }
  {
    OwnedAtoms
        o; // vectors: given on one rank only, no block size, a source that fails (on every rank: it is collective)
    MakeAtoms(10, BlockOwner(10), &o);
    t.AddVectors(o, 2, true);
    if (size > 1) {
      if (rank != 0) t.states.vector = nullptr;
      EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_WRONG);
      t.Update();
    }
    t.states.block_size = 0;
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_WRONG);
    t.states.block_size = 2;
    t.states.vector = [](size_t k, Vec) -> PetscErrorCode {
      SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_LIB, "no vector %zu", k);
    };
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_LIB);
    t.DestroyVectors();
  }
  if (rank == 0) EXPECT_TRUE(dir.Entries().empty());
}

// h5py (what users read the file with) sees str attributes, float64 eigenvalues, the (N,3) positions, the states,
// the solver's counters and the comparison's variable-length strings; the XDMF file refers to datasets of the
// dimensions it declares. All ranks write; rank 0 runs /usr/bin/python3 (where python3-h5py is installed).
TEST(ResultsWriter, ReadableByH5py) {
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/out.h5";
  OwnedAtoms o;
  TestStates t(kEigenvalues);
  MakeAtoms(13, InterleavedOwner, &o);
  t.AddVectors(o, 2, true);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, t.states, o.atoms, kOptions, kRootAttributes, kRootValues,
                                 kSolver, kTables),
            0);
  if (tbpeta::test::commRank() != 0) return;
  // Passed to the shell in single quotes: the code uses only double quotes.
  const std::string code =
      "import sys, os, h5py, numpy as np, xml.etree.ElementTree as ET\n"
      "f = h5py.File(sys.argv[1], \"r\")\n"
      "e = f[\"eigenvalues\"][()]\n"
      "assert e.dtype == np.float64, e.dtype\n"
      "assert list(e) == [-7.5, -1.25, 0.0, 1e-12, 2.0, 3.5], e\n"
      "p = f[\"structure/positions\"]\n"
      "assert p.shape == (13, 3) and p.dtype == np.float64, (p.shape, p.dtype)\n"
      "assert p[12, 0] == 12.25 and p[5, 1] == -10.0, p[()]\n"
      "s = f[\"structure/species\"]\n"
      "assert s.dtype == np.int32 and list(s[()]) == [i % 3 for i in range(13)], s[()]\n"
      "o = f.attrs[\"options\"]\n"
      "assert isinstance(o, str), type(o)\n"
      "assert o == \"-params jancu -material GaAs -output out.h5 -unit \\u00b5m\", o\n"
      "n = s.attrs[\"names\"]\n"
      "assert isinstance(n, str) and n.split(\",\") == [\"Ga\", \"As\", \"In\"], n\n"
      "assert f.attrs[\"tbpeta_version\"] == \"0.1.0\"\n"
      "assert f[\"structure/material\"].attrs[\"names\"] == \"GaAs,InAs\"\n"
      "assert f.attrs[\"gap_center\"] == 0.7625\n"
      "d = f[\"states/density\"][()]\n"
      "assert d.shape == (6, 13) and np.allclose(d.sum(axis=1), 1.0, atol=1e-12, rtol=0), d.sum(axis=1)\n"
      "v = f[\"states/vectors\"][()]\n"
      "assert v.shape == (6, 26, 2)\n"
      "assert np.allclose((v ** 2).sum(axis=2).reshape(6, 13, 2).sum(axis=2), d, atol=1e-15, rtol=0)\n"
      "assert f[\"solver\"].attrs[\"name\"] == \"lanczos (test) \\u03bb\" and f[\"solver\"].attrs[\"products\"] == "
      "412\n"
      "c = f[\"compare\"]\n"
      "assert list(c[\"solver\"].asstr()[()]) == [\"lanczos\", \"slepc krylovschur harmonic\", \"slepc krylovschur + "
      "sinvert\"], c[\"solver\"][()]\n"
      "assert c[\"note\"].asstr()[1] == \"not converged within 4000 products \\u2014 capped\"\n"
      "assert list(c[\"converged\"][()]) == [1, 0, 1] and list(c[\"products\"][()]) == [1200, 4000, 0] and "
      "list(c[\"skipped\"][()]) == [0, 0, 1]\n"
      "x = ET.parse(sys.argv[1][:-3] + \".xmf\").getroot()\n"
      "assert x.tag == \"Xdmf\"\n"
      "names = [a.get(\"Name\") for a in x.iter(\"Attribute\")]\n"
      "assert names == [\"species\", \"material\"] + [\"density_%d\" % i for i in range(6)], names\n"
      "for item in x.iter(\"DataItem\"):\n"
      "    if item.get(\"Format\") != \"HDF\": continue\n"
      "    name, dataset = item.text.split(\":\")\n"
      "    assert name == \"out.h5\", name\n"
      "    h = h5py.File(os.path.join(os.path.dirname(sys.argv[1]), name), \"r\")\n"
      "    assert tuple(int(k) for k in item.get(\"Dimensions\").split()) == h[dataset].shape, (dataset, "
      "item.get(\"Dimensions\"))\n"
      "for a in x.iter(\"Attribute\"):\n"
      "    slab = a.find(\"DataItem\")\n"
      "    if slab.get(\"ItemType\") != \"HyperSlab\": continue\n"
      "    i = int(a.get(\"Name\").split(\"_\")[1])\n"
      "    assert [int(k) for k in slab.find(\"DataItem\").text.split()] == [i, 0, 1, 1, 1, 13]\n";
  ASSERT_EQ(code.find('\''), std::string::npos);
  const int status = std::system(("/usr/bin/python3 -c '" + code + "' " + path).c_str());
  EXPECT_EQ(status, 0);
}

// app/plot_states.py on a written file: the level diagram and a density slice as complete PNGs; a missing file, a
// state out of range and a file without densities get one line on stderr, exit code 2 and no PNG. The script does
// not depend on how the file was written, and each run takes seconds (matplotlib): run on 1 rank only.
TEST(ResultsWriter, PlotStatesScript) {
  TBPETA_ASSERT_RANKS();
  if (tbpeta::test::commSize() > 1) GTEST_SKIP() << "run on 1 rank";
  ScratchDir dir;
  const std::string with = dir.path() + "/with.h5", without = dir.path() + "/without.h5";
  OwnedAtoms o;
  TestStates t({-1.0, -1.0, -1.0, -1.0, 0.3, 1.2, 1.2}), levels({0.5, 2.0});
  MakeAtoms(40, BlockOwner(40), &o);
  t.AddVectors(o, 2, false);
  ASSERT_EQ(
      tbpeta::WriteResults(PETSC_COMM_WORLD, with, t.states, o.atoms, kOptions, kRootAttributes, kRootValues, kSolver),
      0);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, without, levels.states, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() != 0) return;
  std::string out, err;
  if (RunCommand(dir.path(), "/usr/bin/python3 -c \"import h5py, matplotlib\"", &out, &err) != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no h5py or matplotlib";
  const std::string script = "/usr/bin/python3 " + std::string(TBPETA_TEST_DATA_DIR) + "/../app/plot_states.py ";
  ASSERT_EQ(RunCommand(dir.path(), script + with + " --state 5", &out, &err), 0) << out << err;
  EXPECT_NE(out.find("wrote " + dir.path() + "/with_levels.png"), std::string::npos) << out;
  ASSERT_EQ(RunCommand(dir.path(), script + with + " --state 1 --axis x --slice 3.3 --prefix " + dir.path() + "/x",
                       &out, &err),
            0)
      << out << err;
  ASSERT_EQ(RunCommand(dir.path(), script + without + " --levels-only", &out, &err), 0) << out << err;
  for (const char *png :
       {"/with_levels.png", "/with_state5_z.png", "/x_levels.png", "/x_state1_x.png", "/without_levels.png"}) {
    const std::string bytes = Slurp(dir.path() + png);
    ASSERT_GE(bytes.size(), 8u) << png;
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << png;
  }
  const std::vector<std::string> written = dir.Entries();
  const std::vector<std::pair<std::string, std::string>> bad = {
      {dir.path() + "/missing.h5", "no such file"},
      {with + " --state 7", "--state 7 is out of range: " + with + " has states 0..6"},
      {with + " --slice 100", "no atom within"},
      {without, "no states/density"},
  };
  for (const auto &[args, message] : bad) {
    EXPECT_EQ(RunCommand(dir.path(), script + args + " --prefix " + dir.path() + "/bad", &out, &err), 2) << args << "\n"
                                                                                                         << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_EQ(err.rfind("plot_states.py: error: ", 0), 0u) << err;
    EXPECT_NE(err.find(message), std::string::npos) << err;
  }
  EXPECT_EQ(dir.Entries(), written); // no PNG and no temporary from the failures
}

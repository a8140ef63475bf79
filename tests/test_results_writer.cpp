// Tests of the HDF5 output: every rank writes its own, interleaved rows; rank 0 reads the file back with the HDF5 C
// API (and once with h5py) and checks every value, shape, type and attribute; bad paths are refused up front and
// failures leave no file behind.
#include <hdf5.h>
#include <petscsys.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "tbpeta/ResultsWriter.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

// A per-test scratch directory made by rank 0 and shared by all ranks; removed at the end.
class ScratchDir {
public:
  ScratchDir()
  {
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
  ~ScratchDir()
  {
    MPI_Barrier(PETSC_COMM_WORLD);
    if (tbpeta::test::commRank() == 0 && !path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  const std::string &path() const { return path_; }
  // Names of the entries in the directory, sorted (rank 0's view).
  std::vector<std::string> Entries() const
  {
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
int    Species(PetscInt i) { return static_cast<int>(i % 3); }
int    Material(PetscInt i) { return static_cast<int>((i / 4) % 2); }

// Interleaved ownership; on 3 ranks rank 1 owns nothing.
int InterleavedOwner(PetscInt i, int size) { return size == 3 ? (i % 2 == 0 ? 0 : 2) : static_cast<int>(i % size); }
// Contiguous blocks (rank r owns [r*N/size, (r+1)*N/size)).
std::function<int(PetscInt, int)> BlockOwner(PetscInt total)
{
  return [total](PetscInt i, int size) { return static_cast<int>(i * size / total); };
}

struct OwnedAtoms {
  std::vector<PetscInt> index;
  std::vector<double>   positions;
  std::vector<int>      species, material;
  tbpeta::AtomsForOutput atoms;
};

// This rank's atoms, in DEScending canonical order (the writer must sort them).
void MakeAtoms(PetscInt total, const std::function<int(PetscInt, int)> &owner, OwnedAtoms *o)
{
  const int rank = tbpeta::test::commRank(), size = tbpeta::test::commSize();
  for (PetscInt i = total - 1; i >= 0; --i) {
    if (owner(i, size) != rank) continue;
    o->index.push_back(i);
    for (int c = 0; c < 3; ++c) o->positions.push_back(Position(i, c));
    o->species.push_back(Species(i));
    o->material.push_back(Material(i));
  }
  o->atoms.canonical_index = o->index;
  o->atoms.positions_nm    = o->positions;
  o->atoms.species         = o->species;
  o->atoms.material        = o->material;
  o->atoms.total_atoms     = total;
  o->atoms.species_names   = {"Ga", "As", "In"};
  o->atoms.material_names  = {"GaAs", "InAs"};
}

const std::vector<double> kEigenvalues = {3.5, -1.25, 0.0, 2.0, -7.5, 1e-12};
const std::string         kOptions     = "-params jancu -material GaAs -output out.h5 -unit \xc2\xb5m"; // with a non-ASCII (UTF-8) character
const std::vector<std::pair<std::string, std::string>> kRootAttributes = {{"tbpeta_version", "0.1.0"}, {"parameter_set", "jancu"}, {"empty", ""}};

// ---- reading back with the HDF5 C API (rank 0) ----

std::vector<hsize_t> Shape(hid_t dset)
{
  hid_t                space = H5Dget_space(dset);
  int                  ndims = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(ndims > 0 ? ndims : 0);
  if (ndims > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  return dims;
}

bool HasType(hid_t dset, hid_t expected)
{
  hid_t type = H5Dget_type(dset);
  bool  ok   = H5Tequal(type, expected) > 0;
  H5Tclose(type);
  return ok;
}

// Reads a scalar string attribute; checks that it is a variable-length UTF-8 string.
std::string ReadStringAttribute(hid_t object, const char *name)
{
  std::string value = "<missing>";
  hid_t       attr  = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) return value;
  hid_t ftype = H5Aget_type(attr), space = H5Aget_space(attr);
  EXPECT_EQ(H5Tget_class(ftype), H5T_STRING) << name;
  EXPECT_GT(H5Tis_variable_str(ftype), 0) << name;
  EXPECT_EQ(H5Tget_cset(ftype), H5T_CSET_UTF8) << name;
  EXPECT_EQ(H5Sget_simple_extent_type(space), H5S_SCALAR) << name;
  hid_t mtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(mtype, H5T_VARIABLE);
  H5Tset_cset(mtype, H5T_CSET_UTF8);
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

herr_t CollectName(hid_t, const char *name, const H5A_info_t *, void *data)
{
  static_cast<std::vector<std::string> *>(data)->push_back(name);
  return 0;
}

std::vector<std::string> AttributeNames(hid_t object)
{
  std::vector<std::string> names;
  H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, CollectName, &names);
  std::sort(names.begin(), names.end());
  return names;
}

template <typename T>
std::vector<T> ReadAll(hid_t dset, hid_t mem_type, std::size_t count)
{
  std::vector<T> v(count);
  if (count) EXPECT_GE(H5Dread(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0);
  return v;
}

// Checks every value, shape, type and attribute of a file written from MakeAtoms(total, ...), kEigenvalues sorted
// (or `eigenvalues`), kOptions and kRootAttributes.
void VerifyFile(const std::string &path, PetscInt total, std::vector<double> eigenvalues = kEigenvalues)
{
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;

  // Root: attributes
  std::vector<std::string> expected_names = {"options"};
  for (const auto &[k, v] : kRootAttributes) expected_names.push_back(k);
  std::sort(expected_names.begin(), expected_names.end());
  EXPECT_EQ(AttributeNames(file), expected_names);
  EXPECT_EQ(ReadStringAttribute(file, "options"), kOptions);
  for (const auto &[k, v] : kRootAttributes) EXPECT_EQ(ReadStringAttribute(file, k.c_str()), v) << k;

  // Eigenvalues
  std::sort(eigenvalues.begin(), eigenvalues.end());
  hid_t dset = H5Dopen2(file, "eigenvalues", H5P_DEFAULT);
  EXPECT_GE(dset, 0);
  if (dset >= 0) {
    EXPECT_TRUE(HasType(dset, H5T_IEEE_F64LE));
    EXPECT_EQ(Shape(dset), (std::vector<hsize_t>{eigenvalues.size()}));
    EXPECT_EQ(ReadAll<double>(dset, H5T_NATIVE_DOUBLE, eigenvalues.size()), eigenvalues);
    H5Dclose(dset);
  }

  // Structure
  hid_t group = H5Gopen2(file, "structure", H5P_DEFAULT);
  EXPECT_GE(group, 0);
  if (group >= 0) {
    H5G_info_t info;
    EXPECT_GE(H5Gget_info(group, &info), 0);
    EXPECT_EQ(info.nlinks, 3u);
    const hsize_t n = static_cast<hsize_t>(total);

    dset = H5Dopen2(group, "positions", H5P_DEFAULT);
    EXPECT_GE(dset, 0);
    if (dset >= 0) {
      EXPECT_TRUE(HasType(dset, H5T_IEEE_F64LE));
      EXPECT_EQ(Shape(dset), (std::vector<hsize_t>{n, 3}));
      auto v = ReadAll<double>(dset, H5T_NATIVE_DOUBLE, 3 * n);
      for (hsize_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) EXPECT_EQ(v[3 * i + c], Position(static_cast<PetscInt>(i), c)) << "atom " << i << " coordinate " << c;
      EXPECT_TRUE(AttributeNames(dset).empty());
      H5Dclose(dset);
    }
    const char *names[2]    = {"species", "material"};
    const char *expected[2] = {"Ga,As,In", "GaAs,InAs"};
    for (int k = 0; k < 2; ++k) {
      dset = H5Dopen2(group, names[k], H5P_DEFAULT);
      EXPECT_GE(dset, 0) << names[k];
      if (dset < 0) continue;
      EXPECT_TRUE(HasType(dset, H5T_STD_I32LE)) << names[k];
      EXPECT_EQ(Shape(dset), (std::vector<hsize_t>{n})) << names[k];
      auto v = ReadAll<int32_t>(dset, H5T_NATIVE_INT32, n);
      for (hsize_t i = 0; i < n; ++i) EXPECT_EQ(v[i], k == 0 ? Species(static_cast<PetscInt>(i)) : Material(static_cast<PetscInt>(i))) << names[k] << " of atom " << i;
      EXPECT_EQ(AttributeNames(dset), std::vector<std::string>{"names"}) << names[k];
      EXPECT_EQ(ReadStringAttribute(dset, "names"), expected[k]) << names[k];
      H5Dclose(dset);
    }
    H5Gclose(group);
  }
  std::vector<std::string> root_links;
  H5Literate(file, H5_INDEX_NAME, H5_ITER_INC, nullptr, [](hid_t, const char *name, const H5L_info_t *, void *data) -> herr_t {
    static_cast<std::vector<std::string> *>(data)->push_back(name);
    return 0;
  }, &root_links);
  EXPECT_EQ(root_links, (std::vector<std::string>{"eigenvalues", "structure"}));
  EXPECT_GE(H5Fclose(file), 0);
}

// Writes with the given ownership and verifies on rank 0; the directory then holds only out.h5.
void WriteAndVerify(PetscInt total, const std::function<int(PetscInt, int)> &owner)
{
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.path() + "/out.h5";
  OwnedAtoms        o;
  MakeAtoms(total, owner, &o);
  ASSERT_EQ(tbpeta::CheckOutputPath(PETSC_COMM_WORLD, path), 0);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, kEigenvalues, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() == 0) {
    VerifyFile(path, total);
    EXPECT_EQ(dir.Entries(), std::vector<std::string>{"out.h5"}); // no .tmp- file left
  }
}

// Calls f with PETSc's error handler replaced by one that only returns the code (no trace is printed).
PetscErrorCode Quietly(const std::function<PetscErrorCode()> &f)
{
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  PetscErrorCode ierr = f();
  PetscPopErrorHandler();
  return ierr;
}

std::string LastErrorMessage()
{
  const char *text     = nullptr;
  char       *specific = nullptr;
  PetscErrorMessage(0, &text, &specific);
  return specific ? specific : "";
}

std::string Broadcast(std::string s)
{
  unsigned long n = s.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG, 0, PETSC_COMM_WORLD);
  s.resize(n);
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, PETSC_COMM_WORLD);
  return s;
}

} // namespace

TEST(ResultsWriter, InterleavedOwnershipSmall)
{
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(11, InterleavedOwner);
}

// Enough interleaved rows per rank that the writer uses point selections instead of a union of hyperslabs.
TEST(ResultsWriter, InterleavedOwnershipLarge)
{
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(1201, InterleavedOwner);
}

TEST(ResultsWriter, BlockOwnership)
{
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(50, BlockOwner(50));
}

// Fewer atoms than ranks: some ranks own nothing.
TEST(ResultsWriter, FewerAtomsThanRanks)
{
  TBPETA_ASSERT_RANKS();
  WriteAndVerify(1, InterleavedOwner);
}

TEST(ResultsWriter, NoEigenvaluesAndNoAtoms)
{
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/empty.h5";
  OwnedAtoms        o;
  MakeAtoms(0, InterleavedOwner, &o);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, {}, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() == 0) {
    VerifyFile(path, 0, {});
    EXPECT_EQ(dir.Entries(), std::vector<std::string>{"empty.h5"});
  }
}

TEST(ResultsWriter, OverwritesExistingFile)
{
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/out.h5";
  if (tbpeta::test::commRank() == 0) std::ofstream(path) << "not an HDF5 file\n";
  MPI_Barrier(PETSC_COMM_WORLD);
  OwnedAtoms o;
  MakeAtoms(7, InterleavedOwner, &o);
  ASSERT_EQ(tbpeta::CheckOutputPath(PETSC_COMM_WORLD, path), 0);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, kEigenvalues, o.atoms, kOptions, kRootAttributes), 0);
  const std::vector<double> second = {-1.0, -2.0};
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, second, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() == 0) {
    VerifyFile(path, 7, second);
    EXPECT_EQ(dir.Entries(), std::vector<std::string>{"out.h5"});
  }
}

TEST(ResultsWriter, BadPathsAreRefused)
{
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string d = dir.path();
  if (tbpeta::test::commRank() == 0) {
    std::ofstream(d + "/plain") << "a regular file\n";
    fs::create_directory(d + "/dir.h5");
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  // (path, whether WriteResults cannot write there either: CheckOutputPath is stricter, e.g. about the suffix)
  const std::vector<std::pair<std::string, bool>> bad = {
    {d + "/missing/out.h5", true}, // directory does not exist
    {d + "/plain/out.h5", true},   // "directory" is a regular file
    {d + "/dir.h5", true},         // a directory, despite its name
    {d, false},                    // a directory
    {d + "/out.txt", false},       // not .h5
    {d + "/out.h5.bak", false},    // not .h5
    {"", false},                   // nothing
  };
  OwnedAtoms o;
  MakeAtoms(5, InterleavedOwner, &o);
  for (const auto &[path, unwritable] : bad) {
    EXPECT_EQ(Quietly([&] { return tbpeta::CheckOutputPath(PETSC_COMM_WORLD, path); }), PETSC_ERR_USER_INPUT) << path;
    const std::string message = LastErrorMessage();
    EXPECT_EQ(message.rfind("-output " + path + ": ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    // Writing there fails as well and leaves nothing behind.
    if (unwritable) EXPECT_NE(Quietly([&] { return tbpeta::WriteResults(PETSC_COMM_WORLD, path, kEigenvalues, o.atoms, kOptions, kRootAttributes); }), 0) << path;
  }
  if (tbpeta::test::commRank() == 0) EXPECT_EQ(dir.Entries(), (std::vector<std::string>{"dir.h5", "plain"}));
  if (tbpeta::test::commRank() == 0) EXPECT_TRUE(fs::is_empty(d + "/dir.h5"));
}

// A failure after the temporary file was written (PATH is a non-empty directory, so the final rename fails) removes
// the temporary.
TEST(ResultsWriter, FailedRenameLeavesNoFile)
{
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/taken.h5";
  if (tbpeta::test::commRank() == 0) {
    fs::create_directory(path);
    std::ofstream(path + "/keep") << "x\n";
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  OwnedAtoms o;
  MakeAtoms(9, InterleavedOwner, &o);
  EXPECT_EQ(Quietly([&] { return tbpeta::WriteResults(PETSC_COMM_WORLD, path, kEigenvalues, o.atoms, kOptions, kRootAttributes); }), PETSC_ERR_FILE_WRITE);
  const std::string message = LastErrorMessage();
  EXPECT_NE(message.find("cannot write results to " + path), std::string::npos) << message;
  if (tbpeta::test::commRank() == 0) EXPECT_EQ(dir.Entries(), std::vector<std::string>{"taken.h5"});
}

// Inconsistent input is refused, collectively, before any file is created.
TEST(ResultsWriter, InvalidInputIsRefused)
{
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/out.h5";
  const int         rank = tbpeta::test::commRank(), size = tbpeta::test::commSize();
  auto              write = [&](const tbpeta::AtomsForOutput &atoms, const std::vector<std::pair<std::string, std::string>> &attrs) {
    return Quietly([&] { return tbpeta::WriteResults(PETSC_COMM_WORLD, path, kEigenvalues, atoms, kOptions, attrs); });
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
    OwnedAtoms o; // reserved or duplicate attribute names, a name with a comma
    MakeAtoms(10, BlockOwner(10), &o);
    EXPECT_EQ(write(o.atoms, {{"options", "x"}}), PETSC_ERR_ARG_WRONG);
    EXPECT_EQ(write(o.atoms, {{"a", "x"}, {"a", "y"}}), PETSC_ERR_ARG_WRONG);
    o.atoms.species_names[1] = "As,P";
    EXPECT_EQ(write(o.atoms, kRootAttributes), PETSC_ERR_ARG_WRONG);
  }
  if (rank == 0) EXPECT_TRUE(dir.Entries().empty());
}

// h5py (what users read the file with) sees str attributes, float64 eigenvalues and the (N,3) positions. All ranks
// write; rank 0 runs /usr/bin/python3 (where python3-h5py is installed) on the file.
TEST(ResultsWriter, ReadableByH5py)
{
  TBPETA_ASSERT_RANKS();
  ScratchDir dir;
  const std::string path = dir.path() + "/out.h5";
  OwnedAtoms        o;
  MakeAtoms(13, InterleavedOwner, &o);
  ASSERT_EQ(tbpeta::WriteResults(PETSC_COMM_WORLD, path, kEigenvalues, o.atoms, kOptions, kRootAttributes), 0);
  if (tbpeta::test::commRank() != 0) return;
  // Passed to the shell in single quotes: the code uses only double quotes.
  const std::string code = "import sys, h5py, numpy as np\n"
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
                           "assert f[\"structure/material\"].attrs[\"names\"] == \"GaAs,InAs\"\n";
  ASSERT_EQ(code.find('\''), std::string::npos);
  const int status = std::system(("/usr/bin/python3 -c '" + code + "' " + path).c_str());
  EXPECT_EQ(status, 0);
}

// A new output group is one file (its maker, in its stage's layer) plus one line (the stage adds it to the run's
// results, RunResults): this file makes a group of its own -- per atom the number of passivated bonds and the offset
// from the box's centre, with attributes, a table and a root attribute -- adds it to the results of a real system
// beside a built-in group, writes the file on this many ranks and reads it back with the HDF5 C API: the rows in
// canonical order (lexicographic in the atoms' positions), the counts against a brute-force count of neighbours over
// the file's own positions, the offsets, the attributes and the table, and the XDMF file naming the new fields.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "application/RunOutput.hpp"
#include "geometry/CompositionOutput.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;

namespace {

// ---- the group: all of it ----

// The group surface/: per owned atom its passivated (dangling) bonds and its offset from the box's centre (nm); the
// centre and the rule as attributes; a table of how many atoms have 0..4 passivated bonds; a root attribute.
// Collective (the table's counts are summed over the ranks).
PetscErrorCode SurfaceOutput(MPI_Comm comm, const TightBindingSystem &sys, ResultsPart *part) {
  const Structure &s = sys.structure;
  std::array<double, 3> centre;
  std::vector<long long> histogram(5, 0);
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; ++a) centre[a] = 0.125 * sys.a_nm * (sys.lattice.planes()[a] - 1);
  AtomGroup g{"surface", {{"passivated_bonds", 1, {}}, {"offset", 3, {}}}, {}, {}};
  for (PetscInt i = 0; i < s.owned; ++i) {
    int dangling = 0;
    for (int b = 0; b < 4; ++b) dangling += s.bonds[i][b] < 0;
    const std::array<double, 3> r = s.position(i, sys.a_nm);
    g.fields[0].values.push_back(dangling);
    for (int a = 0; a < 3; ++a) g.fields[1].values.push_back(r[a] - centre[a]);
    ++histogram[dangling];
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, histogram.data(), 5, MPI_LONG_LONG, MPI_SUM, comm));
  g.values = {{"centre_x", centre[0]}, {"centre_y", centre[1]}, {"centre_z", centre[2]}};
  g.text = {{"rule", "bonds that leave the box"}};
  part->groups.push_back(std::move(g));
  part->tables.push_back(
      {"surface_counts", {{"passivated_bonds", std::vector<long long>{0, 1, 2, 3, 4}}, {"atoms", histogram}}});
  part->attributes.push_back({"surface_rule", "passivated bonds per atom"});
  PetscFunctionReturn(0);
}

// ---- reading back (rank 0) ----

std::vector<double> ReadDoubles(hid_t file, const char *path, std::vector<hsize_t> *dims) {
  std::vector<double> v;
  hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
  if (d < 0) return v;
  hid_t space = H5Dget_space(d);
  dims->assign(H5Sget_simple_extent_ndims(space), 0);
  H5Sget_simple_extent_dims(space, dims->data(), nullptr);
  v.resize(H5Sget_simple_extent_npoints(space));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space), H5Dclose(d);
  return v;
}

std::vector<long long> ReadIntegers(hid_t file, const char *path) {
  std::vector<long long> v;
  hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
  if (d < 0) return v;
  hid_t space = H5Dget_space(d);
  v.resize(H5Sget_simple_extent_npoints(space));
  H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space), H5Dclose(d);
  return v;
}

double ReadNumber(hid_t file, const char *object, const char *name) {
  double value = std::nan("");
  hid_t a = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0) return value;
  H5Aread(a, H5T_NATIVE_DOUBLE, &value);
  H5Aclose(a);
  return value;
}

std::string ReadText(hid_t file, const char *object, const char *name) {
  std::string value = "<missing>";
  hid_t a = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0) return value;
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char *s = nullptr;
  if (H5Aread(a, type, &s) >= 0 && s) value = s, H5free_memory(s);
  H5Tclose(type), H5Aclose(a);
  return value;
}

// Everything the file says about the new group, against what the file's own positions say.
void CheckFile(const std::string &path, PetscInt total) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  std::vector<hsize_t> pdims, ndims, odims, xdims;
  const std::vector<double> r = ReadDoubles(file, "/structure/positions", &pdims);
  const std::vector<double> n = ReadDoubles(file, "/surface/passivated_bonds", &ndims);
  const std::vector<double> offset = ReadDoubles(file, "/surface/offset", &odims);
  const std::vector<double> x = ReadDoubles(file, "/composition/x", &xdims); // the built-in group beside it
  EXPECT_EQ(pdims, (std::vector<hsize_t>{(hsize_t)total, 3}));
  EXPECT_EQ(ndims, (std::vector<hsize_t>{(hsize_t)total}));
  EXPECT_EQ(odims, (std::vector<hsize_t>{(hsize_t)total, 3}));
  EXPECT_EQ(xdims, (std::vector<hsize_t>{(hsize_t)total}));
  const std::array<double, 3> centre = {ReadNumber(file, "surface", "centre_x"),
                                        ReadNumber(file, "surface", "centre_y"),
                                        ReadNumber(file, "surface", "centre_z")};
  std::vector<long long> histogram(5, 0);
  for (PetscInt i = 0; i < total && r.size() == 3 * (size_t)total && n.size() == (size_t)total; ++i) {
    const double *ri = &r[3 * i];
    if (i > 0) // canonical order: lexicographic in (x, y, z)
      EXPECT_TRUE(std::lexicographical_compare(&r[3 * (i - 1)], &r[3 * i], ri, ri + 3)) << "row " << i;
    int neighbours = 0; // within 0.3 nm: the bond (0.245 nm in GaAs), not the next shell (0.400 nm)
    for (PetscInt j = 0; j < total; ++j) {
      const double dx = r[3 * j] - ri[0], dy = r[3 * j + 1] - ri[1], dz = r[3 * j + 2] - ri[2];
      neighbours += j != i && dx * dx + dy * dy + dz * dz < 0.09;
    }
    EXPECT_EQ(n[i], 4 - neighbours) << "row " << i;
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(offset[3 * i + a], ri[a] - centre[a], 1e-12) << "row " << i;
    ++histogram[(int)n[i]];
  }
  EXPECT_GT(histogram[1] + histogram[2], 0); // an open box has surface atoms
  EXPECT_EQ(ReadText(file, "surface", "rule"), "bonds that leave the box");
  EXPECT_EQ(ReadText(file, "/", "surface_rule"), "passivated bonds per atom");
  EXPECT_EQ(ReadText(file, "/", "program"), "tbpeta");
  EXPECT_EQ(ReadIntegers(file, "/surface_counts/passivated_bonds"), (std::vector<long long>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ReadIntegers(file, "/surface_counts/atoms"), histogram);
  H5Fclose(file);
  std::ifstream xmf(path.substr(0, path.size() - 3) + ".xmf");
  std::stringstream text;
  text << xmf.rdbuf();
  for (const char *name :
       {"surface_passivated_bonds", "surface_offset", "/surface/passivated_bonds", "/surface/offset", "composition_x"})
    EXPECT_NE(text.str().find(name), std::string::npos) << name;
}

} // namespace

TEST(RegisterOutputGroup, AGroupFromThisFileIsWrittenInCanonicalOrder) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD,
                                           "-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 "
                                           "-dot_material InAs -dot_radius 0.6",
                                           &sys),
            0);
  std::string dir;
  if (tbpeta::test::commRank() == 0) {
    char tmpl[] = "/tmp/tbpeta-group-XXXXXX";
    dir = mkdtemp(tmpl) ? tmpl : "";
  }
  unsigned long size = dir.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG, 0, PETSC_COMM_WORLD);
  dir.resize(size);
  MPI_Bcast(dir.data(), (int)size, MPI_CHAR, 0, PETSC_COMM_WORLD);
  ASSERT_FALSE(dir.empty());

  RunResults results(sys);
  results.Add([&] { return CompositionOutput(sys.structure, sys.nano); }); // a built-in group
  ResultsPart surface;
  ASSERT_EQ(SurfaceOutput(PETSC_COMM_WORLD, sys, &surface), 0);
  // ---- the registration: one line ----
  results.Add(std::move(surface));
  EigenStates states;
  states.solver = "none (a test of the output)";
  results.SetStates(states, nullptr);
  RunOutputOptions opts;
  opts.path = dir + "/groups.h5";
  ASSERT_EQ(WriteRunOutput(PETSC_COMM_WORLD, opts, results), 0);
  if (tbpeta::test::commRank() == 0) CheckFile(opts.path, sys.structure.total());

  // A group that takes a name of the file's own is refused in one line, and no file is left.
  RunResults clash(sys);
  clash.Add(ResultsPart{.groups = {AtomGroup{"structure", {}, {}, {}}}});
  opts.path = dir + "/clash.h5";
  std::string message;
  EXPECT_EQ(tbpeta::test::FirstMessage([&] { return WriteRunOutput(PETSC_COMM_WORLD, opts, clash); }, &message),
            PETSC_ERR_ARG_WRONG);
  EXPECT_NE(message.find("group 'structure' is given twice or is one of the file's own"), std::string::npos) << message;
  MPI_Barrier(PETSC_COMM_WORLD);
  if (tbpeta::test::commRank() == 0) {
    EXPECT_FALSE(std::filesystem::exists(opts.path));
    std::filesystem::remove_all(dir);
  }
  PetscOptionsClear(nullptr);
}

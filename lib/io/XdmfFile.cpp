#include "io/XdmfFile.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "support/CollectiveError.hpp"

namespace tbpeta {

namespace {

std::string XmlEscape(const std::string &s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default: out += ch;
    }
  }
  return out;
}

} // namespace

std::string XdmfPath(const std::string &h5_path) {
  return (h5_path.ends_with(".h5") ? h5_path.substr(0, h5_path.size() - 3) : h5_path) + ".xmf";
}

PetscErrorCode WriteXdmf(const std::string &path, const std::string &results, const std::string &h5_name,
                         unsigned long long atoms, size_t states, const std::vector<XdmfField> &fields) {
  const std::string N = std::to_string(atoms), h5 = XmlEscape(h5_name);
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  PetscFunctionBeginUser;
  PetscCheck(out.is_open(), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write results to %s: cannot create %s (%s)",
             results.c_str(), OneLine(path).c_str(), std::strerror(errno));
  auto item = [&](const std::string &dims, const char *type, int precision, const std::string &dataset) {
    return "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" + type + "\" Precision=\"" +
           std::to_string(precision) + "\" Format=\"HDF\">" + h5 + ":" + dataset + "</DataItem>";
  };
  out << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"3.0\">\n  <Domain>\n    "
         "<Grid Name=\"atoms\" GridType=\"Uniform\">\n";
  out << "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << N << "\" NodesPerElement=\"1\">\n        "
      << item(N, "Int", 4, "/structure/index") << "\n      </Topology>\n";
  out << "      <Geometry GeometryType=\"XYZ\">\n        " << item(N + " 3", "Float", 8, "/structure/positions")
      << "\n      </Geometry>\n";
  for (const char *name : {"species", "material"})
    out << "      <Attribute Name=\"" << name << "\" AttributeType=\"Scalar\" Center=\"Node\">\n        "
        << item(N, "Int", 4, std::string("/structure/") + name) << "\n      </Attribute>\n";
  for (const XdmfField &f : fields) {
    const char *type = f.components == 3 ? "Vector" : f.components == 6 ? "Tensor6" : "Scalar";
    const std::string dims = f.components == 1 ? N : N + " " + std::to_string(f.components);
    out << "      <Attribute Name=\"" << XmlEscape(f.name) << "\" AttributeType=\"" << type
        << "\" Center=\"Node\">\n        " << item(dims, "Float", 8, f.dataset) << "\n      </Attribute>\n";
  }
  const std::string all = std::to_string(states) + " " + N;
  for (size_t i = 0; i < states; ++i) {
    out << "      <Attribute Name=\"density_" << i << "\" AttributeType=\"Scalar\" Center=\"Node\">\n";
    out << "        <DataItem ItemType=\"HyperSlab\" Type=\"HyperSlab\" Dimensions=\"1 " << N << "\">\n";
    out << "          <DataItem Dimensions=\"3 2\" NumberType=\"Int\" Format=\"XML\">" << i << " 0 1 1 1 " << N
        << "</DataItem>\n"; // start, stride, count
    out << "          " << item(all, "Float", 8, "/states/density") << "\n        </DataItem>\n      </Attribute>\n";
  }
  out << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  out.close();
  PetscCheck(!out.fail(), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write results to %s: writing %s failed",
             results.c_str(), OneLine(path).c_str());
  PetscFunctionReturn(0);
}

} // namespace tbpeta

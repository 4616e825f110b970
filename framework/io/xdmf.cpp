#include "framework/io/xdmf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace perksolve::io {

namespace fs = std::filesystem;

std::string xdmf_grid(const XdmfStep& s, const std::string& in) {
  const bool three = s.dim == 3;
  std::string dims = three ? fmt::format("{} {} {}", s.extents[2], s.extents[1], s.extents[0])
                           : fmt::format("{} {}", s.extents[1], s.extents[0]);
  std::string g;
  g += fmt::format("{}<Grid Name=\"iteration {}\" GridType=\"Uniform\">\n", in, s.iteration);
  g += fmt::format("{}  <Time Value=\"{:.17g}\"/>\n", in, s.time);
  g += fmt::format("{}  <Topology TopologyType=\"{}\" NumberOfElements=\"{}\"/>\n", in,
                   three ? "3DRectMesh" : "2DRectMesh", dims);
  g += fmt::format("{}  <Geometry GeometryType=\"{}\">\n", in, three ? "VXVYVZ" : "VXVY");
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < s.dim; ++a)
    g += fmt::format(
        "{}    <DataItem Dimensions=\"{}\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">{}:/grid/{}</DataItem>\n",
        in, s.extents[a], s.h5_file, axes[a]);
  g += fmt::format("{}  </Geometry>\n", in);
  for (const auto& f : s.fields) {
    g += fmt::format("{}  <Attribute Name=\"{}\" AttributeType=\"Scalar\" Center=\"Node\">\n", in, f);
    g += fmt::format(
        "{}    <DataItem Dimensions=\"{}\" NumberType=\"Float\" Precision=\"{}\" Format=\"HDF\">{}:/fields/{}</DataItem>\n",
        in, dims, s.precision_bytes, s.h5_file, f);
    g += fmt::format("{}  </Attribute>\n", in);
  }
  g += fmt::format("{}</Grid>\n", in);
  return g;
}

namespace {
const char* kHeader = "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"2.0\">\n  <Domain>\n";
const char* kFooter = "  </Domain>\n</Xdmf>\n";
}  // namespace

std::string xdmf_document(const XdmfStep& step) { return kHeader + xdmf_grid(step, "    ") + kFooter; }

void write_text_file_atomically(const std::string& path, const std::string& text) {
  const fs::path p(path);
  const fs::path tmp = p.parent_path() / (std::string(".") + p.filename().string() + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) throw std::runtime_error("cannot rename " + tmp.string() + " to " + path + ": " + ec.message());
}

void write_xdmf_series(const std::string& dir, const std::string& prefix, long up_to) {
  const std::regex step_re(std::string("^") + std::regex_replace(prefix, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                           R"(_(\d+)\.xmf$)");
  std::map<long, std::string> grids;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (!std::regex_match(name, m, step_re)) continue;
    const long it = std::stol(m[1].str());
    if (it > up_to) continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    const size_t a = doc.find("<Grid "), b = doc.rfind("</Grid>");
    if (a == std::string::npos || b == std::string::npos) continue;
    // Re-indent the step's grid one level deeper inside the collection.
    std::string grid = doc.substr(a, b + 7 - a);
    std::string out = "      ";
    for (char c : grid) {
      out += c;
      if (c == '\n') out += "  ";
    }
    grids[it] = out + "\n";
  }
  std::string doc = kHeader;
  doc += "    <Grid Name=\"" + prefix + "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& [it, g] : grids) doc += g;
  doc += "    </Grid>\n";
  doc += kFooter;
  write_text_file_atomically((fs::path(dir) / (prefix + ".xmf")).string(), doc);
}

}  // namespace perksolve::io

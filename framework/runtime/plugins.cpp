#include "framework/runtime/plugins.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace perksolve {

void load_plugin(const std::string& path) {
  // RTLD_GLOBAL so a plug-in's symbols are visible to later plug-ins; never unloaded.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char* why = dlerror();
    throw std::runtime_error("cannot load plug-in '" + path + "': " + (why ? why : "unknown error"));
  }
}

}  // namespace perksolve

#include "injection/cuda/cupti_library.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "injection/cuda/cupti_versions.h"

namespace prof::injection::cuda {
namespace {

// The soname of the libcupti matching the headers (CUDA 13: libcupti.so.13).
std::string CuptiSoname() {
  return "libcupti.so." + std::to_string(CuptiMajor(kBuiltCuptiVersion));
}

bool ResolveInjectionFunctions(void* handle, void* functions) {
  auto* out = static_cast<CuptiFunctions*>(functions);
  bool complete = true;
#define PROF_CUPTI_FUNCTION(name)                                          \
  out->name = reinterpret_cast<decltype(out->name)>(dlsym(handle, #name)); \
  complete = complete && out->name != nullptr;
#include "injection/cuda/cupti_function_list.h"
#undef PROF_CUPTI_FUNCTION
  return complete;
}

// Directories `site-packages/` of every loaded library that lives in one (torch, nvidia wheels).
int CollectSitePackages(dl_phdr_info* info, size_t, void* data) {
  auto* found = static_cast<std::string*>(data);
  const char* path = info->dlpi_name;
  const char* marker = path != nullptr ? std::strstr(path, "/site-packages/") : nullptr;
  if (marker == nullptr) return 0;
  const std::string dir(path, static_cast<size_t>(marker - path) + std::strlen("/site-packages/"));
  if (found->find(dir + '\n') == std::string::npos) *found += dir + '\n';
  return 0;
}

class Search {
 public:
  Search(CuptiResolver resolve, char* message, size_t size)
      : resolve_(resolve), message_(message), size_(size) {}

  // Tries `path`; true when it loaded and resolved.
  bool Try(const std::string& path, int flags, void* out) {
    void* handle = dlopen(path.c_str(), flags);
    if (handle == nullptr) {
      tried_ += (tried_.empty() ? "" : ", ") + path;
      return false;
    }
    if (!resolve_(handle, out)) {
      tried_ += (tried_.empty() ? "" : ", ") + path + " (lacks CUPTI functions)";
      return false;  // never dlclose: see cupti_library.h
    }
    char origin[512] = {};
    if (path.find('/') == std::string::npos && dlinfo(handle, RTLD_DI_ORIGIN, origin) == 0) {
      std::snprintf(message_, size_, "%s/%s", origin, path.c_str());
    } else {
      std::snprintf(message_, size_, "%s", path.c_str());
    }
    return true;
  }

  // A libcupti the process already loaded (not an attempt worth listing when it fails).
  bool TryLoaded(const std::string& soname, void* out) {
    void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (handle == nullptr || !resolve_(handle, out)) return false;
    char origin[512] = {};
    dlinfo(handle, RTLD_DI_ORIGIN, origin);
    std::snprintf(message_, size_, "%s/%s (already loaded)", origin, soname.c_str());
    return true;
  }

  void Fail() const {
    std::snprintf(message_, size_, "no usable libcupti; tried %s", tried_.c_str());
  }

 private:
  CuptiResolver resolve_;
  char* message_;
  size_t size_;
  std::string tried_;
};

bool TryToolkit(Search* search, const std::string& home, void* out) {
  for (const char* sub : {"/lib64/", "/extras/CUPTI/lib64/", "/lib/"}) {
    if (search->Try(home + sub + CuptiSoname(), RTLD_NOW | RTLD_GLOBAL, out)) return true;
  }
  return false;
}

bool TryCudaHome(Search* search, const char* variable, void* out) {
  const char* home = std::getenv(variable);
  return home != nullptr && *home != '\0' && TryToolkit(search, home, out);
}

bool TryWheels(Search* search, void* out) {
  std::string sites;
  dl_iterate_phdr(CollectSitePackages, &sites);
  for (size_t begin = 0, end; (end = sites.find('\n', begin)) != std::string::npos;
       begin = end + 1) {
    const std::string site = sites.substr(begin, end - begin);
    // CUDA 13 wheels share nvidia/cu13/lib; CUDA 12 wheels had one folder per component.
    for (const char* sub : {"nvidia/cu13/lib/", "nvidia/cuda_cupti/lib/"}) {
      if (search->Try(site + sub + CuptiSoname(), RTLD_NOW | RTLD_GLOBAL, out)) return true;
    }
  }
  return false;
}

}  // namespace

bool LoadCupti(CuptiFunctions* out, char* message, size_t message_size) {
  return LoadCuptiWith(ResolveInjectionFunctions, out, message, message_size);
}

bool LoadCuptiWith(CuptiResolver resolve, void* out, char* message, size_t message_size) {
  Search search(resolve, message, message_size);
  const std::string soname = CuptiSoname();
  if (search.TryLoaded(soname, out)) return true;
#ifdef PROF_BUILD_CUPTI_DIR
  if (search.Try(std::string(PROF_BUILD_CUPTI_DIR) + "/" + soname, RTLD_NOW | RTLD_GLOBAL, out)) {
    return true;
  }
#endif
  if (TryCudaHome(&search, "CUDA_HOME", out) || TryCudaHome(&search, "CUDA_PATH", out) ||
      TryWheels(&search, out) || search.Try(soname, RTLD_NOW | RTLD_GLOBAL, out) ||
      TryToolkit(&search, "/usr/local/cuda", out)) {
    return true;
  }
  search.Fail();
  return false;
}

}  // namespace prof::injection::cuda

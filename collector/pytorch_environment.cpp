#include "collector/pytorch_environment.h"

#include "injection/protocol/launch_settings.h"

namespace prof::collector {

std::vector<std::string> PytorchVariables(const std::string& modes, const std::string& library_dir,
                                          const char* pythonpath) {
  std::string path = library_dir + "/" + protocol::kPytorchPythonDir;
  if (pythonpath != nullptr && *pythonpath != '\0') path += std::string(":") + pythonpath;
  return {std::string(protocol::kPytorchEnvVar) + "=" + modes, "PYTHONPATH=" + path};
}

}  // namespace prof::collector

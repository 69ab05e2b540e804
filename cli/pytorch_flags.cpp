#include "cli/pytorch_flags.h"

#include <array>
#include <sstream>

namespace prof::cli {
namespace {

// The order the canonical list follows (and docs/pytorch.md lists).
constexpr std::array<const char*, 3> kModes = {"autograd-nvtx", "autograd-shapes-nvtx",
                                               "functions-trace"};
constexpr const char* kAccepted =
    "prof accepts --pytorch=autograd-nvtx|autograd-shapes-nvtx|functions-trace|none (a comma list)";

}  // namespace

void RegisterPytorchFlag(CLI::App* profile, std::string* text) {
  profile
      ->add_option("--pytorch", *text,
                   "PyTorch ranges, recorded as NVTX (implies -t nvtx): one per autograd operator "
                   "(autograd-nvtx; autograd-shapes-nvtx adds input shapes) and per module, "
                   "optimizer step, backward and DataLoader call (functions-trace); comma list "
                   "or none")
      ->default_str("none");
}

Status ParsePytorchModes(const std::string& text, std::string* modes) {
  std::array<bool, kModes.size()> chosen{};
  bool none = false;
  std::istringstream words(text);
  for (std::string word; std::getline(words, word, ',');) {
    if (word == "none") {
      none = true;
      continue;
    }
    bool known = false;
    for (size_t i = 0; i < kModes.size(); ++i) {
      if (word == kModes[i]) chosen[i] = known = true;
    }
    if (!known) {
      return Status::Error("--pytorch=" + text + ": '" + word + "' is not a PyTorch mode; " +
                           kAccepted);
    }
  }
  modes->clear();
  for (size_t i = 0; i < kModes.size(); ++i) {
    if (chosen[i]) *modes += (modes->empty() ? "" : ",") + std::string(kModes[i]);
  }
  if (none && !modes->empty()) {
    return Status::Error("--pytorch=" + text + ": none cannot be combined with a mode; " +
                         kAccepted);
  }
  if (!none && modes->empty())
    return Status::Error("--pytorch needs a value; " + std::string(kAccepted));
  return Status::Ok();
}

}  // namespace prof::cli

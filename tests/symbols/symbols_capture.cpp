#include "tests/symbols/symbols_capture.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tests/support/test_support.h"
#include "tests/symbols/symbols_target_api.h"

namespace prof::test {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  REQUIRE(file);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

}  // namespace

SymbolsCapture RunSymbolsTarget(const std::string& program) {
  SymbolsCapture capture;
  std::string dir = MakeTempDir(program);
  CommandResult run = RunCommand({TestProgram(program), dir});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  capture.dir = std::filesystem::canonical(dir).string();
  capture.program = std::filesystem::canonical(TestProgram(program)).string();
  capture.plugin = std::filesystem::canonical(TestProgram("libsymbols_plugin.so")).string();

  std::string bytes = ReadAll(dir + "/capture.bin");
  CaptureHeader header;
  REQUIRE(bytes.size() >= sizeof(header));
  std::memcpy(&header, bytes.data(), sizeof(header));
  REQUIRE(std::string(header.magic, 8) == "PROFCAP1");
  REQUIRE(bytes.size() == sizeof(header) + header.stack_size);
  for (size_t i = 0; i < capture.registers.values.size(); ++i) {
    capture.registers.values[i] = header.registers[i];
  }
  capture.stack.assign(bytes.begin() + sizeof(header), bytes.end());

  capture.maps_text = ReadAll(dir + "/maps.txt");
  std::istringstream addresses(ReadAll(dir + "/addresses.txt"));
  std::string name, value;
  while (addresses >> name >> value) {
    capture.addresses[name] = std::strtoull(value.c_str(), nullptr, 16);
  }
  REQUIRE(capture.addresses.size() == 5);
  return capture;
}

symbols::ProcessTable TableOf(const SymbolsCapture& capture) {
  StatusOr<symbols::ProcessMaps> maps = symbols::ProcessMaps::ParseProcMaps(capture.maps_text);
  REQUIRE(maps.ok());
  symbols::ProcessTable table;
  table.Process(kCapturedPid) = std::move(maps).value();
  return table;
}

}  // namespace prof::test

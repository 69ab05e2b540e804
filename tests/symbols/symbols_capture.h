// Runs symbols_target (one of its builds) and reads back what it captured: its registers and
// stack inside hot_seventy, its /proc/self/maps and the addresses it names (symbols_target.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collector/symbols/process_table.h"
#include "collector/symbols/user_registers.h"

namespace prof::test {

struct SymbolsCapture {
  std::string dir;      // canonical: as the kernel wrote it into maps
  std::string program;  // canonical path of the program that ran
  std::string plugin;   // canonical path of its plugin
  symbols::UserRegisters registers;
  std::vector<uint8_t> stack;
  std::string maps_text;
  std::map<std::string, uint64_t> addresses;  // addresses.txt: name -> address
};

// The pid under which tests enter the (exited) program's maps.
constexpr int kCapturedPid = 4242;

// Runs tests/bin/<program> and reads its capture; fails the current test on any problem.
SymbolsCapture RunSymbolsTarget(const std::string& program);

// A ProcessTable holding the capture's maps under kCapturedPid.
symbols::ProcessTable TableOf(const SymbolsCapture& capture);

}  // namespace prof::test

// The options of `nsys profile` that prof has no behaviour for, so that an nsys command line runs
// unchanged under prof: each is accepted where its value asks for nothing prof lacks (an "off" or
// "default" value, or a setting that has no effect on what prof collects) and otherwise refused
// with one line that says what prof does not collect. The options prof implements are registered
// by the profile command itself; docs/nsys-compatibility.md lists both.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace prof::cli {

class NsysProfileOptions {
 public:
  // Adds every option of the table to `profile`; their values are kept here.
  void Register(CLI::App* profile);
  // The first option given with a value prof cannot honour, as an error.
  Status Check() const;
  // The value given for `long_name` ("--export"), or "" when the option was not given.
  std::string Value(std::string_view long_name) const;

  // Every long option name of the table, for the tests' list of nsys's options.
  static std::vector<std::string> LongNames();

  // The help group of these options, which `prof profile --help` leaves out (they are listed in
  // docs/nsys-compatibility.md). Not CLI11's hidden group "": its errors would lose their names.
  static constexpr const char* kGroup = "nsys options";

 private:
  std::map<std::string, std::string, std::less<>> values_;  // long name -> value given
};

}  // namespace prof::cli

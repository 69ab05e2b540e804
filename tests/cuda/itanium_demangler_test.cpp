// prof's Itanium demangler: nsys's spelling construct by construct, robustness on malformed input,
// and the oracle test — in kSubstituted style it must print what NsysSpelling(__cxa_demangle)
// prints for a corpus of real library symbols (tests/data/itanium_mangled_names.txt).
#include "demangle/itanium_demangler.h"

#include <cxxabi.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "collector/kernel_names.h"

namespace prof::collector {
namespace {

std::string Nsys(const char* mangled) {
  return DemangleItanium(mangled, DemangleStyle::kNsys).value_or("<not parsed>");
}

std::string Substituted(const std::string& mangled) {
  return DemangleItanium(mangled, DemangleStyle::kSubstituted).value_or("<not parsed>");
}

std::string CxaDemangleRespelled(const std::string& mangled) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || demangled == nullptr) return "<not demangled>";
  return NsysSpelling(demangled.get());
}

std::vector<std::string> CorpusNames() {
  std::ifstream file(PROF_ITANIUM_CORPUS);
  std::vector<std::string> names;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line[0] != '#') names.push_back(line);
  }
  return names;
}

TEST_CASE("itanium demangler agrees with __cxa_demangle on the library corpus", "[cuda][names]") {
  const std::vector<std::string> names = CorpusNames();
  REQUIRE(names.size() > 3000);
  size_t disagreements = 0;
  for (const std::string& name : names) {
    const std::string expected = CxaDemangleRespelled(name);
    const std::string actual = Substituted(name);
    if (actual == expected) continue;
    if (++disagreements <= 5) {
      INFO(name);
      CHECK(actual == expected);
    }
  }
  CHECK(disagreements == 0);
}

TEST_CASE("itanium demangler prints template parameters as nsys does", "[cuda][names]") {
  CHECK(Nsys("_Z1fIiEvT_") == "void f<int>(T1)");
  CHECK(Nsys("_Z1fIicEvT0_RKT_") == "void f<int, char>(T2, const T1 &)");
  // S0_ is the candidate T_ added, S1_ is T_*: they print as the parameter too.
  CHECK(Nsys("_Z1fIiEvPT_S0_S1_") == "void f<int>(T1 *, T1, T1 *)");
  CHECK(Nsys("_Z1fIJicEEvDpT_") == "void f<int, char>(T1...)");
  CHECK(Substituted("_Z1fIiEvPT_S0_S1_") == "void f<int>(int *, int, int *)");
  CHECK(Substituted("_Z1fIJicEEvDpT_") == "void f<int, char>(int, char)");
}

TEST_CASE("itanium demangler prints return types of functions that scope local names",
          "[cuda][names]") {
  const char* lambda_in_template = "_ZZN1a1fIiEEvT_ENKUlvE_clEv";
  CHECK(Nsys(lambda_in_template) ==
        "void a::f<int>(T1)::[lambda() (instance 1)]::operator ()() const");
  CHECK(Substituted(lambda_in_template) ==
        "a::f<int>(int)::[lambda() (instance 1)]::operator ()() const");
  CHECK(Nsys("_ZZ1gvENKUlfE0_clEf") ==
        "g()::[lambda(float) (instance 2)]::operator ()(float) const");
}

TEST_CASE("itanium demangler spells names like nsys", "[cuda][names]") {
  CHECK(Nsys("_Z1fILi4ELj7ELl3ELm2ELx1ELy9ELin2EEvv") ==
        "void f<(int)4, (unsigned int)7, (long)3, (unsigned long)2, (long long)1, "
        "(unsigned long long)9, (int)-2>()");
  CHECK(Nsys("_Z1fILb1ELc97EEvv") == "void f<true, (char)97>()");
  CHECK(Nsys("_ZN12_GLOBAL__N_11kEv") == "<unnamed>::k()");
  CHECK(Nsys("_ZN1AIN1BIiEEE1fEv") == "A<B<int>>::f()");
  CHECK(Nsys("_ZN1AUt_1fEv") == "A::{unnamed type#1}::f()");
  CHECK(Nsys("_ZN1A1fB5cxx11Ev") == "A::f[abi:cxx11]()");
  CHECK(Nsys("_ZN1AIiEC2ERKS0_") == "A<int>::A(const A<int> &)");
  CHECK(Nsys("_ZN1AD1Ev") == "A::~A()");
  CHECK(Nsys("_ZN1AmlERKS_") == "A::operator *(const A &)");
  CHECK(Nsys("_ZN1AltIiEEbv") == "bool A::operator< <int>()");
  CHECK(Nsys("_ZN1AcviEv") == "A::operator int()");
  CHECK(Nsys("_ZNKSt6vectorIiSaIiEE4sizeEv") ==
        "std::vector<int, std::allocator<int>>::size() const");
  CHECK(Nsys("_ZNSsC1Ev") ==
        "std::basic_string<char, std::char_traits<char>, std::allocator<char>>::basic_string()");
  CHECK(Nsys("_Z1fSsSoSd") == "f(std::string, std::ostream, std::iostream)");
  CHECK(Nsys("_ZTV1A") == "vtable for A");
}

TEST_CASE("itanium demangler spells declarators like nsys", "[cuda][names]") {
  CHECK(Nsys("_Z1fPFviEPA4_iRA2_A3_c") == "f(void (*)(int), int (*) [4], char (&) [2][3])");
  CHECK(Nsys("_Z1fM1AFviEM1AKFvvEM1Ai") == "f(void (A::*)(int), void (A::*)() const, int A::*)");
  CHECK(Nsys("_Z1fPKcPKPKcRKPc") == "f(const char *, const char *const *, char *const &)");
  CHECK(Nsys("_Z1fOiPPi") == "f(int &&, int **)");
  CHECK(Nsys("_Z1fIiEPFvvEv") == "void (*f<int>())()");
  CHECK(Nsys("_Z1fIXadL_Z1gvEEEvv") == "void f<&g>()");
  CHECK(Nsys("_Z1fIXplLi1ELi2EEEvv") == "void f<(1)+(2)>()");
}

TEST_CASE("itanium demangler collapses references to reference arguments", "[cuda][names]") {
  CHECK(Substituted("_Z1fIRiEvOT_") == "void f<int &>(int &)");
  CHECK(Nsys("_Z1fIRiEvOT_") == "void f<int &>(T1 &&)");
}

TEST_CASE("itanium demangler rejects malformed names without reading past them", "[cuda][names]") {
  const std::string name =
      "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEE"
      "viT0_T1_";
  for (size_t length = 0; length < name.size(); ++length) {
    // Every prefix is malformed or a different (shorter) name; none may crash.
    (void)DemangleItanium(name.substr(0, length), DemangleStyle::kNsys);
    (void)DemangleItanium(name.substr(0, length), DemangleStyle::kSubstituted);
  }
  CHECK_FALSE(DemangleItanium("_Z1fS_", DemangleStyle::kNsys).has_value());
  CHECK_FALSE(DemangleItanium("_Z1fT_", DemangleStyle::kSubstituted).has_value());
  CHECK_FALSE(DemangleItanium("_Z999999f", DemangleStyle::kNsys).has_value());
  CHECK_FALSE(
      DemangleItanium("_Z1f" + std::string(100000, 'P') + "i", DemangleStyle::kNsys).has_value());
  // Each S<n>_ doubles the output: it stops at its size limit instead of running out of memory.
  std::string doubling = "_Z1fIiEvPT_";
  for (int i = 0; i < 40; ++i) doubling += "S" + std::to_string(i) + "_";
  CHECK_FALSE(DemangleItanium(doubling, DemangleStyle::kNsys).has_value());
}

}  // namespace
}  // namespace prof::collector

// Kernel names: real mangled/demangled/short name triples from an nsys export of a PyTorch program
// (torch_mix.sqlite, nsys 2025.3 on an H200), and the respelling rules one by one.
#include "collector/kernel_names.h"

#include <catch2/catch.hpp>
#include <string>

namespace prof::collector {
namespace {

struct NsysKernelName {
  const char* mangled;
  const char* demangled;  // nsys's demangledName
  const char* short_name;
};

// Every distinct kernel name of torch_mix.sqlite.
const NsysKernelName kTorchMixNames[] = {
    {// distribution_elementwise_grid_stride_kernel
     "_ZN2at6native54_GLOBAL__N__d8ceb000_21_DistributionNormal_cu_0c5b6e8543distribution_elem"
     "entwise_grid_stride_kernelIfLi4EZNS0_9templates4cuda20normal_and_transformIffPNS_17CUDAG"
     "eneratorImplEZZZNS4_13normal_kernelIS7_EEvRKNS_10TensorBaseEddT_ENKUlvE_clEvENKUlvE0_clE"
     "vEUlfE_EEvRNS_18TensorIteratorBaseET1_T2_EUlP24curandStatePhilox4_32_10E0_ZNS1_27distrib"
     "ution_nullary_kernelIff6float4S7_SM_SF_EEvSH_SJ_RKT3_T4_EUlifE_EEvlNS_15PhiloxCudaStateE"
     "SI_SJ_",
     "void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<float, (int)4, v"
     "oid at::native::templates::cuda::normal_and_transform<float, float, at::CUDAGeneratorImp"
     "l *, void at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl *>(const at::"
     "TensorBase &, double, double, T1)::[lambda() (instance 1)]::operator ()() const::[lambda"
     "() (instance 2)]::operator ()() const::[lambda(float) (instance 1)]>(at::TensorIteratorB"
     "ase &, T3, T4)::[lambda(curandStatePhilox4_32_10 *) (instance 2)], void at::native::<unn"
     "amed>::distribution_nullary_kernel<float, float, float4, at::CUDAGeneratorImpl *, void a"
     "t::native::templates::cuda::normal_and_transform<float, float, at::CUDAGeneratorImpl *, "
     "void at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl *>(const at::Tenso"
     "rBase &, double, double, T1)::[lambda() (instance 1)]::operator ()() const::[lambda() (i"
     "nstance 2)]::operator ()() const::[lambda(float) (instance 1)]>(at::TensorIteratorBase &"
     ", T3, T4)::[lambda(curandStatePhilox4_32_10 *) (instance 2)], void at::native::templates"
     "::cuda::normal_kernel<at::CUDAGeneratorImpl *>(const at::TensorBase &, double, double, T"
     "1)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 2)]::operator ()()"
     " const::[lambda(float) (instance 1)]>(at::TensorIteratorBase &, T4, const T5 &, T6)::[la"
     "mbda(int, float) (instance 1)]>(long, at::PhiloxCudaState, T3, T4)",
     "distribution_elementwise_grid_stride_kernel"},
    {// sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas
     "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4"
     "_alignc4_execute_kernel__5x_cublas",
     "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4"
     "_alignc4_execute_kernel__5x_cublas",
     "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
     "alignc4_execute_kernel__5x_cublas"},
    {// vectorized_elementwise_kernel
     "_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_49_GLOBAL__N__d2ba64fb_16_Tensor"
     "Compare_cu_71e06f4e19launch_clamp_scalarERNS_18TensorIteratorBaseEN3c106ScalarES6_NS0_6d"
     "etail11ClampLimitsEENKUlvE_clEvENKUlvE5_clEvEUlfE_St5arrayIPcLm2EEEEviT0_T1_",
     "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::launch_cla"
     "mp_scalar(at::TensorIteratorBase &, c10::Scalar, c10::Scalar, at::native::detail::ClampL"
     "imits)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 7)]::operator "
     "()() const::[lambda(float) (instance 1)], std::array<char *, (unsigned long)2>>(int, T2,"
     " T3)",
     "vectorized_elementwise_kernel"},
    {// vectorized_elementwise_kernel
     "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEE"
     "viT0_T1_",
     "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, s"
     "td::array<char *, (unsigned long)1>>(int, T2, T3)",
     "vectorized_elementwise_kernel"},
    {// vectorized_elementwise_kernel
     "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BinaryFunctorIfffNS0_15binary_int"
     "ernal10MulFunctorIfEEEESt5arrayIPcLm3EEEEviT0_T1_",
     "void at::native::vectorized_elementwise_kernel<(int)4, at::native::BinaryFunctor<float, "
     "float, float, at::native::binary_internal::MulFunctor<float>>, std::array<char *, (unsig"
     "ned long)3>>(int, T2, T3)",
     "vectorized_elementwise_kernel"},
    {// vectorized_elementwise_kernel
     "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEESt5arrayIPcLm3"
     "EEEEviT0_T1_",
     "void at::native::vectorized_elementwise_kernel<(int)4, at::native::CUDAFunctor_add<float"
     ">, std::array<char *, (unsigned long)3>>(int, T2, T3)",
     "vectorized_elementwise_kernel"},
    {// reduce_kernel
     "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_f"
     "unctorIfffEclERNS_14TensorIteratorEEUlffE_EEjfLi4ELi4EEEEEvT1_",
     "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native:"
     ":func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator ()(at::Ten"
     "sorIterator &)::[lambda(float, float) (instance 1)]>, unsigned int, float, (int)4, (int)"
     "4>>(T3)",
     "reduce_kernel"},
};

TEST_CASE("cuda_tracker kernel short names are nsys's for every torch_mix kernel",
          "[cuda][names]") {
  for (const NsysKernelName& name : kTorchMixNames) {
    INFO("kernel " << name.short_name);
    CHECK(KernelNamesOf(name.mangled).short_name == name.short_name);
    CHECK(ShortKernelName(name.demangled) == name.short_name);
  }
}

TEST_CASE("cuda_tracker demangled names are nsys's for every torch_mix kernel", "[cuda][names]") {
  for (const NsysKernelName& name : kTorchMixNames) {
    INFO("kernel " << name.short_name);
    CHECK(KernelNamesOf(name.mangled).demangled == name.demangled);
  }
}

TEST_CASE("cuda_tracker names that do not demangle are used unchanged", "[cuda][names]") {
  const char* cublas =
      "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
      "alignc4_execute_kernel__5x_cublas";
  const KernelNames names = KernelNamesOf(cublas);
  CHECK(names.demangled == cublas);
  CHECK(names.short_name == cublas);
  CHECK(KernelNamesOf("my_extern_c_kernel").demangled == "my_extern_c_kernel");
  CHECK(KernelNamesOf("_Znot_a_mangled_name").demangled == "_Znot_a_mangled_name");
  CHECK(KernelNamesOf("_Znot_a_mangled_name").short_name == "_Znot_a_mangled_name");
}

TEST_CASE("cuda_tracker names prof's demangler does not parse come from __cxa_demangle",
          "[cuda][names]") {
  // A clone suffix: __cxa_demangle's spelling, respelled.
  CHECK(KernelNamesOf("_ZN2at6kernelIiEEvT_.cold").demangled ==
        "void at::kernel<int>(int) [clone .cold]");
}

TEST_CASE("cuda_tracker respells __cxa_demangle output like nsys", "[cuda][names]") {
  CHECK(NsysSpelling("f<4, -2, 7u, 3l, 2ul, 1ll, 9ull>") ==
        "f<(int)4, (int)-2, (unsigned int)7, (long)3, (unsigned long)2, (long long)1, "
        "(unsigned long long)9>");
  CHECK(NsysSpelling("a::(anonymous namespace)::k()") == "a::<unnamed>::k()");
  CHECK(NsysSpelling("f()::{lambda()#1}") == "f()::[lambda() (instance 1)]");
  CHECK(NsysSpelling("f()::{lambda(int, float*)#12}") ==
        "f()::[lambda(int, float *) (instance 12)]");
  CHECK(NsysSpelling("A<B<int> >") == "A<B<int>>");
  CHECK(NsysSpelling("S::operator()() const") == "S::operator ()() const");
  CHECK(NsysSpelling("k(char**, int&, float&&)") == "k(char **, int &, float &&)");
  CHECK(NsysSpelling("k(at::TensorBase const&, char const*)") ==
        "k(const at::TensorBase &, const char *)");
  CHECK(NsysSpelling("k(A<int> const&)") == "k(const A<int> &)");
  // Numbers that are not whole template arguments stay as they are.
  CHECK(NsysSpelling("float4 k(int[4], v2<x3>)") == "float4 k(int[4], v2<x3>)");
  CHECK(NsysSpelling("k<(char)97, 4x>") == "k<(char)97, 4x>");
}

TEST_CASE("cuda_tracker short names drop return type scopes templates and parameters",
          "[cuda][names]") {
  CHECK(ShortKernelName("void a::b::k<(int)4, c<d>>(int, T2)") == "k");
  CHECK(ShortKernelName("k") == "k");
  CHECK(ShortKernelName("k(int)") == "k");
  CHECK(ShortKernelName("void a::<unnamed>::k<a::<unnamed>::F>(T1)") == "k");
  CHECK(ShortKernelName("void ns::S<int>::operator ()(int) const") == "operator ()");
  CHECK(ShortKernelName("void f<[lambda(float) (instance 1)]>(T1)") == "f");
}

}  // namespace
}  // namespace prof::collector

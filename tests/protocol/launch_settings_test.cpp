#include "injection/protocol/launch_settings.h"

#include <catch2/catch.hpp>
#include <cstring>

using prof::protocol::DecodeSettings;
using prof::protocol::EncodeSettings;
using prof::protocol::InjectionSettings;

TEST_CASE("settings survive the environment round trip - paths with separators included") {
  InjectionSettings settings;
  settings.trace_flags = prof::protocol::kTraceNvtx | prof::protocol::kTraceOsrt;
  settings.osrt_threshold_ns = 12345;
  settings.cuda_graph_trace = prof::protocol::CudaGraphTrace::kNode;
  settings.cuda_memory_usage = true;
  settings.python_backtrace = true;
  settings.nvtx_counter_time = true;
  settings.timer_sampling_hz = 997;
  settings.python_sampling_hz = 499;
  settings.sample_stack_bytes = 16384;
  settings.osrt_backtrace_threshold_ns = 80000;
  settings.osrt_backtrace_depth = 31;
  std::strcpy(settings.socket_path, "/tmp/prof-a;b=c/stream.sock");
  const std::string encoded = EncodeSettings(settings);
  CHECK(encoded ==
        "v=1;trace=6;osrt_threshold_ns=12345;cuda_graph_trace=1;"
        "cuda_memory_usage=1;python_backtrace=1;nvtx_counter_time=1;timer_sampling_hz=997;"
        "python_sampling_hz=499;sample_stack_bytes=16384;osrt_backtrace_threshold_ns=80000;osrt_"
        "backtrace_depth=31;socket=/"
        "tmp/prof-a;b=c/"
        "stream.sock");

  InjectionSettings decoded;
  REQUIRE(DecodeSettings(encoded.c_str(), &decoded));
  CHECK(decoded.trace_flags == settings.trace_flags);
  CHECK(decoded.osrt_threshold_ns == 12345);
  CHECK(decoded.cuda_graph_trace == prof::protocol::CudaGraphTrace::kNode);
  CHECK(decoded.cuda_memory_usage);
  CHECK(decoded.nvtx_counter_time);
  CHECK(decoded.timer_sampling_hz == 997);
  CHECK(decoded.python_sampling_hz == 499);
  CHECK(decoded.sample_stack_bytes == 16384);
  CHECK(decoded.osrt_backtrace_threshold_ns == 80000);
  CHECK(decoded.osrt_backtrace_depth == 31);
  CHECK(std::string(decoded.socket_path) == "/tmp/prof-a;b=c/stream.sock");
  CHECK(decoded.traces(prof::protocol::kTraceOsrt));
  CHECK_FALSE(decoded.traces(prof::protocol::kTraceCuda));
}

TEST_CASE("settings of another version - malformed or absent leave the injection inert") {
  InjectionSettings decoded;
  decoded.trace_flags = 99;
  CHECK_FALSE(DecodeSettings(nullptr, &decoded));
  CHECK_FALSE(DecodeSettings("v=2;trace=1;socket=/x", &decoded));
  CHECK_FALSE(DecodeSettings("v=1;trace=abc;socket=/x", &decoded));
  // More native frames than a record can carry.
  CHECK_FALSE(DecodeSettings("v=1;osrt_backtrace_depth=65;socket=/x", &decoded));
  CHECK_FALSE(DecodeSettings("v=1;trace=1", &decoded));
  CHECK_FALSE(DecodeSettings("garbage", &decoded));
  CHECK_FALSE(DecodeSettings("v=1;trace=1;cuda_graph_trace=2;socket=/x", &decoded));
  CHECK_FALSE(DecodeSettings("v=1;trace=1;cuda_memory_usage=2;socket=/x", &decoded));
  CHECK_FALSE(DecodeSettings("v=1;trace=1;timer_sampling_hz=4294967296;socket=/x", &decoded));
  // A stack copy larger than a sample record carries, or not whole words.
  CHECK_FALSE(DecodeSettings("v=1;trace=1;sample_stack_bytes=32776;socket=/x", &decoded));
  CHECK_FALSE(DecodeSettings("v=1;trace=1;sample_stack_bytes=4097;socket=/x", &decoded));
  CHECK(decoded.trace_flags == 99);  // untouched on failure
}

TEST_CASE("socket paths longer than sun_path are rejected") {
  const std::string text = "v=1;trace=1;socket=/" + std::string(200, 'a');
  InjectionSettings decoded;
  CHECK_FALSE(DecodeSettings(text.c_str(), &decoded));
}

// libprof_nvtx.so inside a real NVTX v3 instance (this executable's own copy of the headers),
// attached through NVTX_INJECTION64_PATH; records are captured by fake_event_stream.cpp.
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <set>
#include <thread>

#include "tests/nvtx/fake_event_stream.h"

namespace prof::test {
namespace {

using protocol::NvtxEventRecord;
using protocol::NvtxMessageKind;
using protocol::NvtxPayloadKind;
using protocol::NvtxRangeEnding;
using protocol::NvtxRangeEndRecord;
using protocol::RecordKind;

uint32_t ThisTid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

// Attaches the injection before this process's first NVTX call, then drops earlier records.
void Attach() {
  static const bool attached = [] {
    setenv("NVTX_INJECTION64_PATH", PROF_NVTX_LIBRARY, 1);
    nvtxInitialize(nullptr);
    return true;
  }();
  REQUIRE(attached);
  TakeCapturedRecords();
}

nvtxEventAttributes_t Attributes(const char* message) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message;
  return attributes;
}

std::string EventText(const CapturedRecord& record) {
  return record.Text<NvtxEventRecord>(record.As<NvtxEventRecord>().text_length);
}

TEST_CASE("push and pop return per-domain nesting levels and emit matching records", "[nvtx]") {
  Attach();
  const nvtxDomainHandle_t domain = nvtxDomainCreateA("levels");
  nvtxEventAttributes_t inner = Attributes("in-domain");
  CHECK(nvtxRangePushA("outer") == 0);
  CHECK(nvtxRangePushW(L"middle") == 1);
  CHECK(nvtxDomainRangePushEx(domain, &inner) == 0);
  CHECK(nvtxRangePop() == 1);
  CHECK(nvtxDomainRangePop(domain) == 0);
  CHECK(nvtxRangePop() == 0);
  CHECK(nvtxRangePop() < 0);
  CHECK(nvtxDomainRangePop(domain) < 0);

  // One record per range, emitted at its pop (innermost first); the failed pops emit nothing.
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 4);
  const uint64_t domain_id = records[0].As<protocol::NvtxDomainRecord>().domain_id;
  struct Expected {
    uint64_t domain_id;
    const char* text;
  };
  const Expected expected[] = {{0, "middle"}, {domain_id, "in-domain"}, {0, "outer"}};
  std::vector<NvtxEventRecord> ranges;
  for (size_t i = 0; i < 3; ++i) {
    const CapturedRecord& record = records[i + 1];
    INFO("range " << i);
    REQUIRE(record.kind() == RecordKind::kNvtxPushPopRange);
    const auto range = record.As<NvtxEventRecord>();
    CHECK(record.header().tid == ThisTid());
    CHECK(range.domain_id == expected[i].domain_id);
    CHECK(range.ending == protocol::NvtxRangeEnding::kPopped);
    CHECK(range.message_kind == NvtxMessageKind::kText);
    CHECK(EventText(record) == expected[i].text);
    CHECK(record.header().size == protocol::AlignedRecordSize(sizeof(range) + range.text_length));
    CHECK(range.header.timestamp_ns >= records[0].header().timestamp_ns);
    CHECK(range.end_ns >= range.header.timestamp_ns);
    ranges.push_back(range);
  }
  // Pushed outer, middle, in-domain; popped middle, in-domain, outer: the ends in that order, the
  // starts nested.
  CHECK(ranges[2].header.timestamp_ns <= ranges[0].header.timestamp_ns);
  CHECK(ranges[0].header.timestamp_ns <= ranges[1].header.timestamp_ns);
  CHECK(ranges[0].end_ns <= ranges[1].end_ns);
  CHECK(ranges[1].end_ns <= ranges[2].end_ns);
}

TEST_CASE("each thread has its own push/pop stack", "[nvtx]") {
  Attach();
  CHECK(nvtxRangePushA("main-level-0") == 0);
  int other_push = -2, other_pop = -2, other_extra_pop = -2;
  std::thread other([&] {
    other_push = nvtxRangePushA("other-level-0");
    other_pop = nvtxRangePop();
    other_extra_pop = nvtxRangePop();
  });
  other.join();
  CHECK(nvtxRangePop() == 0);
  CHECK(other_push == 0);
  CHECK(other_pop == 0);
  CHECK(other_extra_pop < 0);
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 2);  // one range per thread, each on its own thread
  CHECK(records[0].Text<NvtxEventRecord>(records[0].As<NvtxEventRecord>().text_length) ==
        "other-level-0");
  CHECK(records[1].Text<NvtxEventRecord>(records[1].As<NvtxEventRecord>().text_length) ==
        "main-level-0");
  CHECK(records[0].header().tid != records[1].header().tid);
}

TEST_CASE("range start returns unique ids and may end on another thread", "[nvtx]") {
  Attach();
  const nvtxRangeId_t first = nvtxRangeStartA("first");
  const nvtxRangeId_t second = nvtxRangeStartW(L"second");
  CHECK(first != 0);
  CHECK(second != 0);
  CHECK(first != second);
  uint32_t ender_tid = 0;
  std::thread ender([&] {
    ender_tid = ThisTid();
    nvtxRangeEnd(first);
  });
  ender.join();
  nvtxRangeEnd(second);
  nvtxRangeEnd(0);  // never a valid id: ignored

  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 4);
  REQUIRE(records[0].kind() == RecordKind::kNvtxRangeStart);
  CHECK(records[0].As<NvtxEventRecord>().range_id == first);
  CHECK(EventText(records[0]) == "first");
  REQUIRE(records[1].kind() == RecordKind::kNvtxRangeStart);
  CHECK(records[1].As<NvtxEventRecord>().range_id == second);
  CHECK(EventText(records[1]) == "second");
  REQUIRE(records[2].kind() == RecordKind::kNvtxRangeEnd);
  CHECK(records[2].As<NvtxRangeEndRecord>().range_id == first);
  CHECK(records[2].header().tid == ender_tid);
  CHECK(ender_tid != ThisTid());
  REQUIRE(records[3].kind() == RecordKind::kNvtxRangeEnd);
  CHECK(records[3].As<NvtxRangeEndRecord>().range_id == second);
  CHECK(records[3].header().tid == ThisTid());
}

TEST_CASE("wide messages arrive as UTF-8", "[nvtx]") {
  Attach();
  nvtxMarkW(L"h\u00e9llo \u20ac \U0001D11E");
  const wchar_t invalid[] = {L'a', static_cast<wchar_t>(0xD800), static_cast<wchar_t>(0x110000),
                             L'b', L'\0'};
  nvtxMarkW(invalid);
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 2);
  CHECK(EventText(records[0]) == "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9D\x84\x9E");
  CHECK(EventText(records[1]) ==
        "a\xEF\xBF\xBD\xEF\xBF\xBD"
        "b");
}

TEST_CASE("marks carry colour - category and each payload type", "[nvtx]") {
  Attach();
  nvtxEventAttributes_t attributes = Attributes("payload");
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = 0xFF00AA11u;
  attributes.category = 42;
  struct Case {
    int32_t type;
    uint64_t raw;
    NvtxPayloadKind kind;
    uint64_t bits;
  };
  const Case cases[] = {
      {NVTX_PAYLOAD_TYPE_UNSIGNED_INT64, 0xFFFFFFFFFFFFFFFEull, NvtxPayloadKind::kUnsignedInt64,
       0xFFFFFFFFFFFFFFFEull},
      {NVTX_PAYLOAD_TYPE_INT64, static_cast<uint64_t>(-5ll), NvtxPayloadKind::kInt64,
       static_cast<uint64_t>(-5ll)},
      // 32-bit payloads keep their own 4 bytes only, whatever the rest of the union holds.
      {NVTX_PAYLOAD_TYPE_UNSIGNED_INT32, 0xDEADBEEF00000007ull, NvtxPayloadKind::kUnsignedInt32, 7},
      {NVTX_PAYLOAD_TYPE_INT32, 0xDEADBEEFFFFFFFFDull, NvtxPayloadKind::kInt32, 0xFFFFFFFDull},
      {0x7777, 123, NvtxPayloadKind::kNone, 0},
  };
  for (const Case& c : cases) {
    attributes.payloadType = c.type;
    attributes.payload.ullValue = c.raw;
    nvtxMarkEx(&attributes);
  }
  attributes.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  attributes.payload.dValue = 2.5;
  nvtxMarkEx(&attributes);
  attributes.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
  attributes.payload.ullValue = 0;
  attributes.payload.fValue = -1.25f;
  nvtxMarkEx(&attributes);

  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 7);
  for (size_t i = 0; i < 5; ++i) {
    INFO("case " << i);
    const auto mark = records[i].As<NvtxEventRecord>();
    CHECK(records[i].kind() == RecordKind::kNvtxMark);
    CHECK(mark.domain_id == 0);
    CHECK(mark.range_id == 0);
    CHECK(mark.has_color == 1);
    CHECK(mark.color == 0xFF00AA11u);
    CHECK(mark.category == 42);
    CHECK(mark.payload_kind == cases[i].kind);
    CHECK(mark.payload_bits == cases[i].bits);
    CHECK(EventText(records[i]) == "payload");
  }
  const auto as_double = records[5].As<NvtxEventRecord>();
  CHECK(as_double.payload_kind == NvtxPayloadKind::kDouble);
  double d = 0;
  std::memcpy(&d, &as_double.payload_bits, sizeof(d));
  CHECK(d == 2.5);
  const auto as_float = records[6].As<NvtxEventRecord>();
  CHECK(as_float.payload_kind == NvtxPayloadKind::kFloat);
  CHECK(as_float.payload_bits <= 0xFFFFFFFFull);
  float f = 0;
  std::memcpy(&f, &as_float.payload_bits, sizeof(f));
  CHECK(f == -1.25f);
}

TEST_CASE("events without usable attributes carry no message", "[nvtx]") {
  Attach();
  nvtxMarkEx(nullptr);
  nvtxEventAttributes_t undersized = Attributes("ignored");
  undersized.size = 8;
  nvtxMarkEx(&undersized);
  nvtxMarkA(nullptr);
  CHECK(nvtxRangePushA(nullptr) == 0);
  CHECK(nvtxRangePop() == 0);
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 4);
  CHECK(records[3].header().kind == RecordKind::kNvtxPushPopRange);
  for (const CapturedRecord& record : records) {
    const auto event = record.As<NvtxEventRecord>();
    CHECK(event.message_kind == NvtxMessageKind::kNone);
    CHECK(event.text_length == 0);
    CHECK(event.has_color == 0);
    CHECK(event.payload_kind == NvtxPayloadKind::kNone);
    CHECK(record.header().size == sizeof(NvtxEventRecord));
  }
}

TEST_CASE("a pushed range carries every attribute of its push", "[nvtx]") {
  Attach();
  const nvtxDomainHandle_t domain = nvtxDomainCreateA("pushed");
  const nvtxStringHandle_t name = nvtxDomainRegisterStringA(domain, "registered step");
  nvtxEventAttributes_t attributes = Attributes("");
  attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  attributes.message.registered = name;
  attributes.category = 4;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = 0xFF445566u;
  attributes.payloadType = NVTX_PAYLOAD_TYPE_INT32;
  attributes.payload.iValue = -3;
  CHECK(nvtxDomainRangePushEx(domain, &attributes) == 0);
  CHECK(nvtxRangePushA("plain") == 0);
  CHECK(nvtxRangePop() == 0);
  CHECK(nvtxDomainRangePop(domain) == 0);
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 4);  // domain, string, then the ranges innermost first
  const auto plain = records[2].As<NvtxEventRecord>();
  CHECK(plain.domain_id == 0);
  CHECK(plain.message_kind == NvtxMessageKind::kText);
  CHECK(EventText(records[2]) == "plain");
  CHECK(plain.category == 0);
  CHECK(plain.has_color == 0);
  CHECK(plain.payload_kind == NvtxPayloadKind::kNone);
  CHECK(plain.registered_string_id == 0);
  const auto pushed = records[3].As<NvtxEventRecord>();
  CHECK(pushed.domain_id == records[0].As<protocol::NvtxDomainRecord>().domain_id);
  CHECK(pushed.message_kind == NvtxMessageKind::kRegistered);
  CHECK(pushed.registered_string_id == records[1].As<protocol::NvtxStringRecord>().string_id);
  CHECK(EventText(records[3]) == "registered step");
  CHECK(pushed.category == 4);
  CHECK(pushed.has_color == 1);
  CHECK(pushed.color == 0xFF445566u);
  CHECK(pushed.payload_kind == NvtxPayloadKind::kInt32);
  CHECK(pushed.payload_bits == 0xFFFFFFFDull);
  CHECK(pushed.ending == NvtxRangeEnding::kPopped);
  CHECK(pushed.end_ns >= plain.end_ns);
}

TEST_CASE("domains - registered strings and category names", "[nvtx]") {
  Attach();
  const nvtxDomainHandle_t alpha = nvtxDomainCreateA("alpha");
  const nvtxDomainHandle_t beta = nvtxDomainCreateW(L"b\u00eata");
  REQUIRE(alpha != nullptr);
  REQUIRE(beta != nullptr);
  CHECK(alpha != beta);
  const nvtxStringHandle_t hello = nvtxDomainRegisterStringA(alpha, "registered hello");
  const nvtxStringHandle_t wide = nvtxDomainRegisterStringW(beta, L"wide \u00fc");
  REQUIRE(hello != nullptr);
  CHECK(hello != wide);
  nvtxDomainNameCategoryA(alpha, 7, "seven");
  nvtxDomainNameCategoryW(beta, 8, L"eight");
  nvtxNameCategoryA(3, "three");
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  attributes.message.registered = hello;
  attributes.category = 7;
  nvtxDomainMarkEx(alpha, &attributes);
  nvtxDomainDestroy(beta);

  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 9);
  const auto alpha_record = records[0].As<protocol::NvtxDomainRecord>();
  const auto beta_record = records[1].As<protocol::NvtxDomainRecord>();
  CHECK(records[0].kind() == RecordKind::kNvtxDomainCreate);
  CHECK(records[0].Text<protocol::NvtxDomainRecord>(alpha_record.text_length) == "alpha");
  CHECK(records[1].Text<protocol::NvtxDomainRecord>(beta_record.text_length) == "b\xC3\xAAta");
  CHECK(alpha_record.domain_id != 0);
  CHECK(beta_record.domain_id != 0);
  CHECK(alpha_record.domain_id != beta_record.domain_id);

  const auto hello_record = records[2].As<protocol::NvtxStringRecord>();
  const auto wide_record = records[3].As<protocol::NvtxStringRecord>();
  CHECK(records[2].kind() == RecordKind::kNvtxStringRegister);
  CHECK(hello_record.domain_id == alpha_record.domain_id);
  CHECK(records[2].Text<protocol::NvtxStringRecord>(hello_record.text_length) ==
        "registered hello");
  CHECK(wide_record.domain_id == beta_record.domain_id);
  CHECK(records[3].Text<protocol::NvtxStringRecord>(wide_record.text_length) == "wide \xC3\xBC");
  CHECK(hello_record.string_id != 0);
  CHECK(hello_record.string_id != wide_record.string_id);

  struct ExpectedCategory {
    uint64_t domain_id;
    uint32_t category;
    const char* name;
  };
  const ExpectedCategory categories[] = {
      {alpha_record.domain_id, 7, "seven"}, {beta_record.domain_id, 8, "eight"}, {0, 3, "three"}};
  for (size_t i = 0; i < 3; ++i) {
    const CapturedRecord& record = records[4 + i];
    const auto category = record.As<protocol::NvtxCategoryRecord>();
    CHECK(record.kind() == RecordKind::kNvtxCategoryName);
    CHECK(category.domain_id == categories[i].domain_id);
    CHECK(category.category == categories[i].category);
    CHECK(record.Text<protocol::NvtxCategoryRecord>(category.text_length) == categories[i].name);
  }

  const auto mark = records[7].As<NvtxEventRecord>();
  CHECK(records[7].kind() == RecordKind::kNvtxMark);
  CHECK(mark.domain_id == alpha_record.domain_id);
  CHECK(mark.message_kind == NvtxMessageKind::kRegistered);
  CHECK(mark.registered_string_id == hello_record.string_id);
  CHECK(EventText(records[7]) == "registered hello");
  CHECK(mark.category == 7);

  CHECK(records[8].kind() == RecordKind::kNvtxDomainDestroy);
  CHECK(records[8].As<protocol::NvtxDomainRecord>().domain_id == beta_record.domain_id);
}

TEST_CASE("nvtxNameOsThread names the given thread", "[nvtx]") {
  Attach();
  nvtxNameOsThreadA(4242, "worker-a");
  nvtxNameOsThreadW(ThisTid(), L"w\u00f6rker");
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 2);
  const auto first = records[0].As<protocol::ThreadNameRecord>();
  CHECK(records[0].kind() == RecordKind::kThreadName);
  CHECK(first.named_tid == 4242);
  CHECK(records[0].Text<protocol::ThreadNameRecord>(first.text_length) == "worker-a");
  const auto second = records[1].As<protocol::ThreadNameRecord>();
  CHECK(second.named_tid == ThisTid());
  CHECK(records[1].Text<protocol::ThreadNameRecord>(second.text_length) == "w\xC3\xB6rker");
}

TEST_CASE("long messages are cut to the record limit on a character boundary", "[nvtx]") {
  Attach();
  // 'a' then two-byte characters: the limit falls in the middle of one of them.
  std::string message = "a";
  while (message.size() < protocol::kMaxTextLength + 10) message += "\xC3\xA9";
  nvtxMarkA(message.c_str());
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 1);
  const std::string text = EventText(records[0]);
  CHECK(text.size() == protocol::kMaxTextLength - 1);
  CHECK(text == message.substr(0, protocol::kMaxTextLength - 1));
}

TEST_CASE("a fork child repeats the create record of a parent's domain before using it", "[nvtx]") {
  Attach();
  const nvtxDomainHandle_t domain = nvtxDomainCreateA("inherited");
  const uint64_t domain_id = TakeCapturedRecords().at(0).As<protocol::NvtxDomainRecord>().domain_id;
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    nvtxEventAttributes_t attributes = Attributes("in child");
    nvtxDomainMarkEx(domain, &attributes);
    nvtxDomainMarkEx(domain, &attributes);
    const std::vector<CapturedRecord> records = TakeCapturedRecords();
    const bool ok = records.size() == 3 && records[0].kind() == RecordKind::kNvtxDomainCreate &&
                    records[0].As<protocol::NvtxDomainRecord>().domain_id == domain_id &&
                    records[0].Text<protocol::NvtxDomainRecord>(9) == "inherited" &&
                    records[1].kind() == RecordKind::kNvtxMark &&
                    records[2].kind() == RecordKind::kNvtxMark &&
                    records[1].As<NvtxEventRecord>().domain_id == domain_id;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The parent has announced the domain already: its next use emits only the event.
  nvtxEventAttributes_t attributes = Attributes("in parent");
  nvtxDomainMarkEx(domain, &attributes);
  const std::vector<CapturedRecord> records = TakeCapturedRecords();
  REQUIRE(records.size() == 1);
  CHECK(records[0].kind() == RecordKind::kNvtxMark);
}

}  // namespace
}  // namespace prof::test

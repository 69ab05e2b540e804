#include "tests/export/perfetto_sample_decoder.h"

#include <cstdint>
#include <map>
#include <string_view>

#include "tests/export/perfetto_trace_decoder.h"

namespace prof::exporter::test {
namespace {

struct FrameInfo {
  uint64_t name = 0;
  uint64_t mapping = 0;
  uint64_t kind = 0;
};

class SampleDecoder {
 public:
  std::vector<std::string> Decode(const std::string& bytes) {
    ForEach(bytes, [&](const Field& packet) {
      if (packet.number == 1) ReadPacket(packet.bytes);
    });
    return lines_;
  }

 private:
  template <typename OnField>
  void ForEach(std::string_view message, OnField on_field) {
    Field field;
    bool ok = true;
    while (NextField(&message, &field, &ok)) on_field(field);
    if (!ok) lines_.push_back("error malformed message");
  }

  void ReadPacket(std::string_view packet) {
    int64_t ts = 0;
    std::string_view sample;
    ForEach(packet, [&](const Field& f) {
      if (f.number == 8) ts = static_cast<int64_t>(f.value);
      if (f.number == 12) ReadInterned(f.bytes);
      if (f.number == 66) sample = f.bytes;
    });
    if (!sample.empty()) ReadSample(ts, sample);
  }

  // InternedString: iid 1, str 2.
  void ReadString(std::string_view entry, std::map<uint64_t, std::string>* table) {
    uint64_t iid = 0;
    std::string text;
    ForEach(entry, [&](const Field& f) {
      if (f.number == 1) iid = f.value;
      if (f.number == 2) text = std::string(f.bytes);
    });
    (*table)[iid] = text;
  }

  void ReadInterned(std::string_view interned) {
    ForEach(interned, [&](const Field& f) {
      if (f.number == 5) ReadString(f.bytes, &functions_);
      if (f.number == 17) ReadString(f.bytes, &path_parts_);
      if (f.number == 19) ReadMapping(f.bytes);
      if (f.number == 6) ReadFrame(f.bytes);
      if (f.number == 7) ReadCallstack(f.bytes);
    });
  }

  void ReadMapping(std::string_view entry) {
    uint64_t iid = 0;
    std::string path;
    ForEach(entry, [&](const Field& f) {
      if (f.number == 1) iid = f.value;
      if (f.number == 7) path += "/" + Lookup(path_parts_, f.value, "path part");
    });
    mappings_[iid] = path;
  }

  void ReadFrame(std::string_view entry) {
    uint64_t iid = 0;
    FrameInfo frame;
    ForEach(entry, [&](const Field& f) {
      if (f.number == 1) iid = f.value;
      if (f.number == 2) frame.name = f.value;
      if (f.number == 3) frame.mapping = f.value;
      if (f.number == 7) frame.kind = f.value;
    });
    frames_[iid] = frame;
  }

  void ReadCallstack(std::string_view entry) {
    uint64_t iid = 0;
    std::vector<uint64_t> frame_ids;
    ForEach(entry, [&](const Field& f) {
      if (f.number == 1) iid = f.value;
      if (f.number == 2) frame_ids.push_back(f.value);
    });
    callstacks_[iid] = frame_ids;
  }

  void ReadSample(int64_t ts, std::string_view sample) {
    uint64_t cpu = 0, pid = 0, tid = 0, callstack = 0;
    ForEach(sample, [&](const Field& f) {
      if (f.number == 1) cpu = f.value;
      if (f.number == 2) pid = f.value;
      if (f.number == 3) tid = f.value;
      if (f.number == 4) callstack = f.value;
    });
    auto stack = callstacks_.find(callstack);
    if (stack == callstacks_.end()) {
      lines_.push_back("error sample without a known callstack");
      return;
    }
    std::string line = std::to_string(ts) + " " + std::to_string(pid) + "/" + std::to_string(tid) +
                       " cpu" + std::to_string(cpu) + " ";
    for (size_t i = 0; i < stack->second.size(); ++i) {
      auto frame = frames_.find(stack->second[i]);
      if (frame == frames_.end()) {
        lines_.push_back("error unknown frame");
        return;
      }
      line += (i > 0 ? ";" : "") + Lookup(functions_, frame->second.name, "function") + " [" +
              Lookup(mappings_, frame->second.mapping, "mapping") + "] " +
              (frame->second.kind == 3   ? "python"
               : frame->second.kind == 1 ? "native"
                                         : "?");
    }
    lines_.push_back(line);
  }

  std::string Lookup(const std::map<uint64_t, std::string>& table, uint64_t iid,
                     const std::string& what) {
    auto found = table.find(iid);
    if (found != table.end()) return found->second;
    lines_.push_back("error unknown " + what + " " + std::to_string(iid));
    return "?";
  }

  std::vector<std::string> lines_;
  std::map<uint64_t, std::string> functions_, path_parts_, mappings_;
  std::map<uint64_t, FrameInfo> frames_;
  std::map<uint64_t, std::vector<uint64_t>> callstacks_;
};

}  // namespace

std::vector<std::string> DecodePerfettoSamples(const std::string& bytes) {
  return SampleDecoder().Decode(bytes);
}

}  // namespace prof::exporter::test

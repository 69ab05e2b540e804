#include "collector/symbols/dwarf_unwinder.h"

#include <elfutils/libdwfl.h>
#include <sys/mman.h>

#include <cstring>
#include <unordered_set>

namespace prof::symbols {
namespace {

// x86-64 DWARF register numbers 0..16 (rax rdx rcx rbx rsi rdi rbp rsp r8..r15, rip as the
// return-address column) and where perf puts each.
constexpr int kDwarfRegisterCount = 17;
constexpr int kPerfIndexOfDwarf[kDwarfRegisterCount] = {
    PERF_REG_X86_AX,  PERF_REG_X86_DX,  PERF_REG_X86_CX,  PERF_REG_X86_BX,  PERF_REG_X86_SI,
    PERF_REG_X86_DI,  PERF_REG_X86_BP,  PERF_REG_X86_SP,  PERF_REG_X86_R8,  PERF_REG_X86_R9,
    PERF_REG_X86_R10, PERF_REG_X86_R11, PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14,
    PERF_REG_X86_R15, PERF_REG_X86_IP};
constexpr unsigned kDwarfSp = 7;

}  // namespace

struct DwarfUnwinder::Session {
  uint64_t generation = 0;
  DwflHandle dwfl;
  bool attached = false;
  // The sample being unwound, set for the duration of one Unwind call.
  int pid = 0;
  const ProcessMaps* maps = nullptr;
  ModuleFiles* files = nullptr;
  const UserRegisters* registers = nullptr;
  ByteSpan stack;
  uint64_t stack_start = 0;
  // The result of the walk.
  std::vector<uint64_t>* frames = nullptr;
  size_t max_frames = 0;
  uint64_t last_sp = 0;
};

namespace {

using Session = DwarfUnwinder::Session;

pid_t NextThread(Dwfl* dwfl, void* dwfl_arg, void** thread_arg) {
  if (*thread_arg != nullptr) return 0;  // one thread: the sampled one
  *thread_arg = dwfl_arg;
  return static_cast<Session*>(dwfl_arg)->pid;
}

bool GetThread(Dwfl* dwfl, pid_t tid, void* dwfl_arg, void** thread_arg) {
  *thread_arg = dwfl_arg;
  return true;
}

bool ReadStack(const Session& session, Dwarf_Addr address, Dwarf_Word* result) {
  if (address < session.stack_start || session.stack.size < sizeof(Dwarf_Word)) return false;
  uint64_t offset = address - session.stack_start;
  if (offset > session.stack.size - sizeof(Dwarf_Word)) return false;
  std::memcpy(result, session.stack.data + offset, sizeof(Dwarf_Word));
  return true;
}

// Read-only file-backed memory holds the file's bytes (written memory may differ: not used).
bool ReadMappedFile(const Session& session, Dwarf_Addr address, Dwarf_Word* result) {
  const Mapping* mapping = session.maps->Find(address);
  if (mapping == nullptr || (mapping->prot & PROT_WRITE) != 0 ||
      address + sizeof(Dwarf_Word) > mapping->end()) {
    return false;
  }
  ModuleFiles::Lookup file = session.files->Get(*mapping);
  if (file.file == nullptr) return false;
  return file.file->Read(address - mapping->start + mapping->file_offset, result,
                         sizeof(Dwarf_Word));
}

bool MemoryRead(Dwfl* dwfl, Dwarf_Addr address, Dwarf_Word* result, void* dwfl_arg) {
  const auto& session = *static_cast<const Session*>(dwfl_arg);
  return ReadStack(session, address, result) || ReadMappedFile(session, address, result);
}

bool SetInitialRegisters(Dwfl_Thread* thread, void* thread_arg) {
  const auto& session = *static_cast<const Session*>(thread_arg);
  Dwarf_Word registers[kDwarfRegisterCount];
  for (int i = 0; i < kDwarfRegisterCount; ++i) {
    registers[i] = session.registers->values[kPerfIndexOfDwarf[i]];
  }
  if (!dwfl_thread_state_registers(thread, 0, kDwarfRegisterCount, registers)) return false;
  dwfl_thread_state_register_pc(thread, session.registers->ip());
  return true;
}

const Dwfl_Thread_Callbacks kThreadCallbacks = {
    NextThread, GetThread, MemoryRead, SetInitialRegisters, nullptr, nullptr,
};

// Takes each frame's pc; stops on a zero pc or a stack pointer that does not move up (a garbage
// or looping unwind: every caller's frame lies above its callee's on x86-64).
int TakeFrame(Dwfl_Frame* frame, void* arg) {
  auto& session = *static_cast<Session*>(arg);
  Dwarf_Addr pc = 0;
  if (!dwfl_frame_pc(frame, &pc, nullptr) || pc == 0) return DWARF_CB_ABORT;
  Dwarf_Word sp = 0;
  if (!session.frames->empty()) {
    if (dwfl_frame_reg(frame, kDwarfSp, &sp) != 0 || sp <= session.last_sp) return DWARF_CB_ABORT;
  } else {
    sp = session.registers->sp();
  }
  session.last_sp = sp;
  session.frames->push_back(pc);
  return session.frames->size() >= session.max_frames ? DWARF_CB_ABORT : DWARF_CB_OK;
}

}  // namespace

DwarfUnwinder::DwarfUnwinder(const ProcessTable& processes, ModuleFiles& files)
    : processes_(processes), files_(files) {}

DwarfUnwinder::~DwarfUnwinder() = default;

DwarfUnwinder::Session* DwarfUnwinder::SessionFor(int pid, const ProcessMaps& maps) {
  std::unique_ptr<Session>& session = sessions_[pid];
  if (session != nullptr && session->generation == maps.generation()) return session.get();
  session = std::make_unique<Session>();
  session->generation = maps.generation();
  session->dwfl = NewDwfl();
  if (session->dwfl == nullptr) return session.get();
  Dwfl* dwfl = session->dwfl.get();
  dwfl_report_begin(dwfl);
  std::unordered_set<const ElfFile*> reported;
  for (const auto& [start, mapping] : maps.mappings()) {
    ModuleFiles::Lookup file = files_.Get(mapping);
    if (file.file == nullptr || reported.count(file.file) != 0) continue;
    std::optional<uint64_t> vaddr = file.file->VaddrOfOffset(mapping.file_offset);
    if (!vaddr) continue;
    // A file is reported once, at the bias of its first mapping with a loadable segment.
    if (ReportFile(dwfl, *file.file, mapping.start - *vaddr) != nullptr) {
      reported.insert(file.file);
    }
  }
  if (dwfl_report_end(dwfl, nullptr, nullptr) == 0 && !reported.empty()) {
    session->attached = dwfl_attach_state(dwfl, nullptr, pid, &kThreadCallbacks, session.get());
  }
  return session.get();
}

std::vector<uint64_t> DwarfUnwinder::Unwind(int pid, const UserRegisters& registers, ByteSpan stack,
                                            uint64_t stack_start_sp, size_t max_frames) {
  std::vector<uint64_t> frames;
  if (max_frames == 0) return frames;
  const ProcessMaps* maps = processes_.Find(pid);
  Session* session = maps == nullptr ? nullptr : SessionFor(pid, *maps);
  if (session == nullptr || !session->attached || pid <= 0) {
    frames.push_back(registers.ip());
    return frames;
  }
  session->pid = pid;
  session->maps = maps;
  session->files = &files_;
  session->registers = &registers;
  session->stack = stack;
  session->stack_start = stack_start_sp;
  session->frames = &frames;
  session->max_frames = max_frames;
  session->last_sp = 0;
  // The walk ends with an error at the outermost frame or the first it cannot unwind; either
  // way the frames taken so far are the answer.
  (void)dwfl_getthread_frames(session->dwfl.get(), pid, TakeFrame, session);
  session->frames = nullptr;
  session->registers = nullptr;
  if (frames.empty()) frames.push_back(registers.ip());
  return frames;
}

}  // namespace prof::symbols

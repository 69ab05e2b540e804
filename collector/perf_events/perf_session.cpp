#include "collector/perf_events/perf_session.h"

#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "collector/perf_events/perf_ring.h"
#include "collector/perf_events/perf_ring_merge.h"

namespace prof::collector::perf {
namespace {

constexpr const char* kParanoidPath = "/proc/sys/kernel/perf_event_paranoid";
constexpr const char* kMaxStackPath = "/proc/sys/kernel/perf_event_max_stack";
// Smallest ring the session shrinks to when the locked-memory limit refuses larger ones.
constexpr uint64_t kSmallestRingBytes = 16 * 1024;

// PROF_PERF_EVENTS=off simulates a kernel that refuses perf events (tests, or a user who wants the
// in-program timer instead).
Status RefusedByEnvironment() {
  const char* setting = std::getenv("PROF_PERF_EVENTS");
  if (setting != nullptr && std::strcmp(setting, "off") == 0) {
    return Status::Error("perf_event_open refused (PROF_PERF_EVENTS=off)");
  }
  return Status::Ok();
}

std::string Refusal(const char* call, int error) {
  return std::string(call) + " refused: " + std::strerror(error) + " (errno " +
         std::to_string(error) + ", perf_event_paranoid " +
         std::to_string(ReadKernelSetting(kParanoidPath, -99)) + ")";
}

// Features sampling can do without, in the order they are given up when the kernel refuses the
// event: a kernel or policy that refuses one should not cost the samples.
struct OptionalFeature {
  const char* what;
  bool (*on)(const perf_event_attr&);
  void (*turn_off)(perf_event_attr*);
};

const OptionalFeature kOptionalFeatures[] = {
    {"build ids in MMAP2 records", [](const perf_event_attr& a) { return a.build_id != 0; },
     [](perf_event_attr* a) { a->build_id = 0; }},
    {"context switches", [](const perf_event_attr& a) { return a.context_switch != 0; },
     [](perf_event_attr* a) { a->context_switch = 0; }},
};
constexpr size_t kFeatureCount = sizeof(kOptionalFeatures) / sizeof(kOptionalFeatures[0]);

// Opens one event on `cpu` with the attributes as asked; when the kernel refuses, tries again
// without each combination of optional features (fewest given up first). Leaves in `*attr` the
// attributes that worked and names what was given up in `*notes`.
Status ChooseFeatures(pid_t pid, int cpu, const PerfEventOpener& opener, perf_event_attr* attr,
                      std::vector<std::string>* notes) {
  int first_error = 0;
  // Bit i of `dropped` gives up kOptionalFeatures[i]; masks in order of how many bits they have.
  for (size_t count = 0; count <= kFeatureCount; ++count) {
    for (unsigned dropped = 0; dropped < (1u << kFeatureCount); ++dropped) {
      if (static_cast<size_t>(__builtin_popcount(dropped)) != count) continue;
      perf_event_attr trial = *attr;
      bool meaningful = true;
      for (size_t i = 0; i < kFeatureCount; ++i) {
        if (!(dropped & (1u << i))) continue;
        meaningful &= kOptionalFeatures[i].on(trial);
        kOptionalFeatures[i].turn_off(&trial);
      }
      if (!meaningful) continue;
      const int fd = opener(&trial, pid, cpu);
      if (fd < 0) {
        if (first_error == 0) first_error = errno;
        // Refusals that no attribute causes: giving features up will not help.
        if (errno == ESRCH || errno == EMFILE || errno == ENFILE) {
          return Status::Error(Refusal("perf_event_open", errno));
        }
        continue;
      }
      close(fd);
      for (size_t i = 0; i < kFeatureCount; ++i) {
        if (dropped & (1u << i)) {
          notes->push_back(std::string(kOptionalFeatures[i].what) + " refused by the kernel (" +
                           std::strerror(first_error) + "); sampling without them");
        }
      }
      *attr = trial;
      return Status::Ok();
    }
  }
  return Status::Error(Refusal("perf_event_open", first_error));
}

}  // namespace

int OpenPerfEvent(perf_event_attr* attr, pid_t pid, int cpu) {
  return static_cast<int>(syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

struct PerfSession::CpuRing {
  int fd = -1;
  void* mapping = MAP_FAILED;
  size_t mapping_bytes = 0;
  std::unique_ptr<PerfRing> reader;

  CpuRing() = default;
  CpuRing(const CpuRing&) = delete;
  CpuRing& operator=(const CpuRing&) = delete;
  ~CpuRing() {
    if (mapping != MAP_FAILED) munmap(mapping, mapping_bytes);
    if (fd >= 0) close(fd);
  }

  // Maps the metadata page and `data_bytes` of ring; errno is kept for the caller on failure.
  bool Map(uint64_t data_bytes) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    mapping_bytes = page + data_bytes;
    mapping = mmap(nullptr, mapping_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapping == MAP_FAILED) return false;
    auto* meta = static_cast<perf_event_mmap_page*>(mapping);
    // data_offset/data_size are filled since Linux 4.1; before, the data follows the first page.
    const uint64_t offset = meta->data_offset != 0 ? meta->data_offset : page;
    const uint64_t size = meta->data_size != 0 ? meta->data_size : data_bytes;
    reader = std::make_unique<PerfRing>(meta, static_cast<uint8_t*>(mapping) + offset, size);
    return true;
  }
};

PerfSession::PerfSession() = default;

PerfSession::PerfSession(PerfSession&& other) noexcept
    : cpus_(std::move(other.cpus_)),
      rings_(std::move(other.rings_)),
      epoll_fd_(std::exchange(other.epoll_fd_, -1)),
      attr_(other.attr_),
      layout_(other.layout_),
      ring_data_bytes_(other.ring_data_bytes_),
      counters_(other.counters_),
      notes_(std::move(other.notes_)) {}

PerfSession& PerfSession::operator=(PerfSession&& other) noexcept {
  if (this != &other) {
    PerfRecordSink discard;
    Close(discard);
    cpus_ = std::move(other.cpus_);
    rings_ = std::move(other.rings_);
    epoll_fd_ = std::exchange(other.epoll_fd_, -1);
    attr_ = other.attr_;
    layout_ = other.layout_;
    ring_data_bytes_ = other.ring_data_bytes_;
    counters_ = other.counters_;
    notes_ = std::move(other.notes_);
  }
  return *this;
}

PerfSession::~PerfSession() {
  PerfRecordSink discard;
  Close(discard);
}

Status PerfSession::Probe() {
  PROF_RETURN_IF_ERROR(RefusedByEnvironment());
  perf_event_attr attr = SamplingAttributes(PerfSamplingOptions(), 1);
  attr.sample_type = PERF_SAMPLE_IP;
  attr.enable_on_exec = 0;
  attr.inherit = 0;
  const int fd = OpenPerfEvent(&attr, 0, -1);
  if (fd < 0) return Status::Error(Refusal("perf_event_open", errno));
  CpuRing ring;
  ring.fd = fd;
  if (!ring.Map(static_cast<uint64_t>(sysconf(_SC_PAGESIZE)))) {
    return Status::Error(Refusal("mmap of a perf ring", errno));
  }
  return Status::Ok();
}

StatusOr<PerfSession> PerfSession::Open(pid_t held_child, const PerfSamplingOptions& options,
                                        const PerfEventOpener& opener) {
  PROF_RETURN_IF_ERROR(RefusedByEnvironment());
  PROF_RETURN_IF_ERROR(CheckSamplingOptions(options));
  PROF_ASSIGN_OR_RETURN(std::vector<int> cpus, OnlineCpus());
  const auto max_stack = static_cast<uint32_t>(ReadKernelSetting(kMaxStackPath, 127));
  PerfSession session;
  session.cpus_ = cpus;
  perf_event_attr attr = SamplingAttributes(options, max_stack);
  PROF_RETURN_IF_ERROR(ChooseFeatures(held_child, cpus[0], opener, &attr, &session.notes_));

  // Rings count against the locked-memory limit (perf_event_mlock_kb per CPU, then
  // RLIMIT_MEMLOCK) of users without CAP_IPC_LOCK: halve them until they fit. The events are
  // opened again each time, since the wake-up mark is an attribute.
  const uint64_t wanted = RingDataBytes(options, max_stack);
  for (uint64_t bytes = wanted;; bytes /= 2) {
    attr.wakeup_watermark = static_cast<uint32_t>(bytes / 2);
    session.rings_.clear();
    for (int cpu : cpus) {
      auto ring = std::make_unique<CpuRing>();
      ring->fd = opener(&attr, held_child, cpu);
      if (ring->fd < 0) return Status::Error(Refusal("perf_event_open", errno));
      const bool mapped = ring->Map(bytes);
      session.rings_.push_back(std::move(ring));
      if (!mapped) break;
    }
    if (session.rings_.back()->mapping != MAP_FAILED) {
      session.ring_data_bytes_ = bytes;
      break;
    }
    const int error = errno;
    if ((error != EPERM && error != ENOMEM) || bytes / 2 < kSmallestRingBytes) {
      return Status::Error(Refusal("mmap of a perf ring", error));
    }
  }
  if (session.ring_data_bytes_ != wanted) {
    session.notes_.push_back("perf rings shrunk from " + std::to_string(wanted / 1024) + " to " +
                             std::to_string(session.ring_data_bytes_ / 1024) +
                             " KiB per CPU to fit the locked-memory limit (perf_event_mlock_kb, "
                             "RLIMIT_MEMLOCK); more samples may be lost");
  }

  session.epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (session.epoll_fd_ < 0) return Status::Error(Refusal("epoll_create1", errno));
  for (size_t i = 0; i < session.rings_.size(); ++i) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = i;
    if (epoll_ctl(session.epoll_fd_, EPOLL_CTL_ADD, session.rings_[i]->fd, &event) != 0) {
      return Status::Error(Refusal("epoll_ctl", errno));
    }
  }
  session.attr_ = attr;
  session.layout_ = LayoutOf(attr);
  return session;
}

std::vector<int> PerfSession::event_fds() const {
  std::vector<int> fds;
  for (const auto& ring : rings_) fds.push_back(ring->fd);
  return fds;
}

size_t PerfSession::Drain(PerfRecordSink& sink) {
  std::vector<PerfRing*> readers;
  for (const auto& ring : rings_) readers.push_back(ring->reader.get());
  return DrainRingsInTimeOrder(readers, layout_, sink, &counters_);
}

size_t PerfSession::Close(PerfRecordSink& sink) {
  if (rings_.empty() && epoll_fd_ < 0) return 0;
  // With inherit, disabling an event disables its inherited copies too: nothing is written after
  // this, so the drain below is the last.
  for (const auto& ring : rings_) ioctl(ring->fd, PERF_EVENT_IOC_DISABLE, 0);
  const size_t delivered = Drain(sink);
  rings_.clear();
  if (epoll_fd_ >= 0) close(epoll_fd_);
  epoll_fd_ = -1;
  return delivered;
}

}  // namespace prof::collector::perf

//===- KokkosRuntime.cpp - What Kokkos programs call ----------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/KokkosRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <cstdlib>

using namespace llvm;

namespace enzyme {

/// Kokkos' functions are in namespace Kokkos: `_ZN6Kokkos`, or `_ZNK6Kokkos`
/// for a const member function.
static bool isKokkosSymbol(StringRef Name) {
  return Name.starts_with("_ZN6Kokkos") || Name.starts_with("_ZNK6Kokkos");
}

/// The qualified name of \p F, without return type and parameters
/// (`Kokkos::Impl::SharedAllocationTracker::get_label<Kokkos::HostSpace>`),
/// or empty for a function outside namespace Kokkos.
static std::string kokkosName(const Function *F) {
  if (!F || !isKokkosSymbol(F->getName()))
    return "";
  // The demangler keeps pointers into the mangled name.
  std::string Mangled = F->getName().str();
  ItaniumPartialDemangler Demangler;
  if (Demangler.partialDemangle(Mangled.c_str()))
    return "";
  char *Name = Demangler.getFunctionName(nullptr, nullptr);
  std::string Result = Name ? Name : "";
  std::free(Name);
  return Result;
}

/// \p Name is \p Entry: a function of that name, or, for an entry that
/// ends in `::` or `<`, anything in that namespace, class or class template.
static bool matches(StringRef Name, StringRef Entry) {
  if (Entry.ends_with("::") || Entry.ends_with("<"))
    return Name.starts_with(Entry);
  // A template of it, or it with an ABI tag (`get_label[abi:cxx11]`).
  return Name == Entry ||
         (Name.starts_with(Entry) &&
          (Name[Entry.size()] == '<' || Name[Entry.size()] == '['));
}

bool isInactiveKokkosCall(const CallBase &Call) {
  return isInactiveKokkosFunction(Call.getCalledFunction());
}

bool isInactiveKokkosFunction(const Function *F) {
  std::string Name = kokkosName(F);
  if (Name.empty())
    return false;
  static const char *const Inactive[] = {
      // Profiling and tuning hooks.
      "Kokkos::Tools::", "Kokkos::Profiling::",
      // Errors and warnings.
      "Kokkos::abort", "Kokkos::Impl::host_abort",
      "Kokkos::Impl::throw_runtime_exception", "Kokkos::Impl::log_warning",
      "Kokkos::Impl::throw_bad_alloc",
      "Kokkos::Experimental::RawMemoryAllocationFailure::",
      "Kokkos::Impl::SharedAllocationRecord<void, void>::is_sane",
      // Fences: the host backends have finished when they return.
      "Kokkos::fence", "Kokkos::Impl::hostspace_fence", "Kokkos::Serial::fence",
      "Kokkos::Serial::impl_static_fence", "Kokkos::OpenMP::fence",
      "Kokkos::OpenMP::impl_static_fence",
      "Kokkos::Impl::ExecSpaceManager::static_fence",
      // Queries and the objects that name a space.
      "Kokkos::is_initialized", "Kokkos::is_finalized", "Kokkos::show_warnings",
      "Kokkos::Serial::impl_is_initialized", "Kokkos::Serial::name",
      "Kokkos::Serial::Serial", "Kokkos::OpenMP::impl_is_initialized",
      "Kokkos::OpenMP::concurrency", "Kokkos::OpenMP::name",
      "Kokkos::OpenMP::OpenMP", "Kokkos::OpenMP::impl_get_current_max_threads",
      "Kokkos::OpenMP::impl_thread_pool_size",
      "Kokkos::OpenMP::impl_thread_pool_rank", "Kokkos::HostSpace::HostSpace",
      // Labels of allocations (a virtual call on the record).
      "Kokkos::Impl::SharedAllocationTracker::get_label",
      "Kokkos::Impl::SharedAllocationRecordCommon<Kokkos::HostSpace>::"
      "get_label",
      // The per-thread scratch that a reduction's team data lives in: what
      // code stores there later gets a shadow where it needs one.
      "Kokkos::Impl::serial_resize_thread_team_data",
      "Kokkos::Impl::serial_get_thread_team_data",
      "Kokkos::Impl::SerialInternal::resize_thread_team_data",
      "Kokkos::Impl::OpenMPInternal::resize_thread_data",
      // How a host reduction splits its iterations among the threads
      // (integers in the thread's team data; kept as calls, so that the
      // OpenMP reverse pass knows the parts apart: kokkosWorkPartitionCall).
      "Kokkos::Impl::HostThreadTeamData::set_work_partition",
      "Kokkos::Impl::HostThreadTeamData::get_work_partition",
      // Execution-space instances are counted references to the backend's
      // state (Kokkos 4), destroyed through a std::function.
      "Kokkos::Impl::HostSharedPtr<",
      // A record destroyed on the way out of a failed constructor.
      "Kokkos::Impl::SharedAllocationRecord<Kokkos::HostSpace, void>::"
      "~SharedAllocationRecord",
      "Kokkos::Impl::SharedAllocationRecordCommon<Kokkos::HostSpace>::"
      "~SharedAllocationRecordCommon",
      // Locks of the host space's fallback atomics.
      "Kokkos::Impl::lock_address_host_space",
      "Kokkos::Impl::unlock_address_host_space"};
  return any_of(Inactive,
                [&](const char *Entry) { return matches(Name, Entry); });
}

KokkosPartitionCall kokkosWorkPartitionCall(const CallBase &Call) {
  std::string Name = kokkosName(Call.getCalledFunction());
  if (matches(Name, "Kokkos::Impl::HostThreadTeamData::set_work_partition") &&
      Call.arg_size() == 3)
    return KokkosPartitionCall::Set;
  if (matches(Name, "Kokkos::Impl::HostThreadTeamData::get_work_partition") &&
      Call.arg_size() == 1 && Call.getType()->isStructTy())
    return KokkosPartitionCall::Get;
  return KokkosPartitionCall::None;
}

bool kokkosCallKeepsNoAddress(const CallBase &Call) {
  std::string Name = kokkosName(Call.getCalledFunction());
  if (Name.empty())
    return false;
  // Handles of an execution space: they copy, count and read the counted
  // pointer they hold, never the address of the handle.
  static const char *const Handles[] = {
      "Kokkos::OpenMP::OpenMP", "Kokkos::OpenMP::~OpenMP",
      "Kokkos::Serial::Serial", "Kokkos::Serial::~Serial",
      "Kokkos::Impl::HostSharedPtr<"};
  return any_of(Handles,
                [&](const char *Entry) { return matches(Name, Entry); });
}

StringRef kokkosRulePrefix(StringRef MangledName) {
  if (!isKokkosSymbol(MangledName))
    return "";
  return StringSwitch<StringRef>(MangledName)
      .Case("_ZN6Kokkos4Impl22SharedAllocationRecordIvvE9incrementEPS2_",
            "__enzyme_rt_kokkos_increment")
      .Case("_ZN6Kokkos4Impl22SharedAllocationRecordIvvE9decrementEPS2_",
            "__enzyme_rt_kokkos_decrement")
      .Default("");
}

bool isKokkosHostRecordConstructor(const Function &F) {
  if (!F.getReturnType()->isVoidTy() || F.arg_size() < 2 ||
      !F.getArg(0)->getType()->isPointerTy())
    return false;
  std::string Name = kokkosName(&F);
  StringRef N(Name);
  return N.starts_with("Kokkos::Impl::SharedAllocationRecord<Kokkos::"
                       "HostSpace, void>::SharedAllocationRecord") ||
         N.starts_with("Kokkos::Impl::SharedAllocationRecordCommon<Kokkos::"
                       "HostSpace>::SharedAllocationRecordCommon");
}

bool isKokkosHostCopy(const Function &F) {
  return F.getName() == "_ZN6Kokkos4Impl27hostspace_parallel_deepcopyEPvPKvl";
}

StringRef kokkosDeepCopyElement(const Function &F) {
  std::string Name = kokkosName(&F);
  StringRef N(Name);
  if (N.consume_front("Kokkos::deep_copy<")) {
    N.consume_front("const ");
    if (N.starts_with("double*") || N.starts_with("double ["))
      return "double";
    if (N.starts_with("float*") || N.starts_with("float ["))
      return "float";
    return "";
  }
  // Unoptimised code copies in DeepCopy's constructor, which deep_copy
  // calls: the element type of its callers, when they agree.
  if (!N.starts_with("Kokkos::Impl::DeepCopy<"))
    return "";
  StringRef Element;
  for (const User *U : F.users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledFunction() != &F)
      return "";
    StringRef Caller = kokkosDeepCopyElement(*Call->getFunction());
    if (Caller.empty() || (!Element.empty() && Caller != Element))
      return "";
    Element = Caller;
  }
  return Element;
}

/// The constructs without derivatives: their `execute`.
static bool isScanExecute(StringRef Name) {
  return (Name.starts_with("Kokkos::Impl::ParallelScan<") ||
          Name.starts_with("Kokkos::Impl::ParallelScanWithTotal<")) &&
         Name.ends_with("::execute");
}

bool isUnsupportedKokkosConstruct(const Function &F) {
  return isScanExecute(kokkosName(&F));
}

bool isKokkosRank2TileFunction(const Function &F) {
  std::string Name = kokkosName(&F);
  StringRef N(Name);
  if (!N.consume_front("Kokkos::Impl::HostIterateTile<Kokkos::MDRangePolicy<"))
    return false;
  // The policy's own template arguments: up to the bracket that closes it.
  size_t Depth = 1, End = 0;
  for (; End < N.size() && Depth; ++End)
    Depth += N[End] == '<' ? 1 : N[End] == '>' ? -1 : 0;
  if (Depth)
    return false;
  StringRef Policy = N.take_front(End - 1);
  StringRef Member = N.drop_front(End);
  // The member is the last component, after the class's closing bracket.
  size_t Scope = Member.rfind(">::");
  if (Scope == StringRef::npos)
    return false;
  Member = Member.drop_front(Scope + 3);
  return Policy.contains("Kokkos::Rank<2u,") &&
         (Member.starts_with("operator()") ||
          Member.starts_with("operator_impl"));
}

bool isKokkosRank2TileLoop(const Function &F) {
  std::string Name = kokkosName(&F);
  StringRef N(Name);
  return N.starts_with("Kokkos::Impl::Tile_Loop_Type<2,") &&
         N.contains(">::apply");
}

void keepKokkosTilesCallable(Module &M) {
  if (!M.getFunction("__kmpc_fork_call"))
    return;
  for (Function &F : M)
    if (!F.isDeclaration() && isKokkosRank2TileFunction(F) &&
        !F.hasFnAttribute(Attribute::AlwaysInline))
      F.addFnAttr(Attribute::NoInline);
}

static constexpr const char *TilesKind = "enzyme.kokkos.tiles";
static constexpr const char *PointKind = "enzyme.kokkos.point";
static constexpr const char *CounterKind = "enzyme.kokkos.counter";

static ConstantAsMetadata *int32Metadata(LLVMContext &Ctx, unsigned N) {
  return ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), N));
}

void markKokkosTile(Instruction &TileNumber, unsigned Id) {
  LLVMContext &Ctx = TileNumber.getContext();
  TileNumber.setMetadata(TilesKind, MDNode::get(Ctx, int32Metadata(Ctx, Id)));
}

static void markLoop(Instruction &I, const char *Kind, unsigned Id,
                     unsigned Loop) {
  LLVMContext &Ctx = I.getContext();
  I.setMetadata(Kind, MDNode::get(Ctx, {int32Metadata(Ctx, Id),
                                        int32Metadata(Ctx, Loop)}));
}

void markKokkosTileCounter(Instruction &Counter, unsigned Id, unsigned Loop) {
  markLoop(Counter, CounterKind, Id, Loop);
}

void markKokkosTilePoint(Instruction &Point, unsigned Id, unsigned Loop) {
  markLoop(Point, PointKind, Id, Loop);
}

static int metadataInteger(const MDNode *N, unsigned Operand) {
  if (!N || N->getNumOperands() <= Operand)
    return -1;
  auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(Operand));
  return C ? int(C->getZExtValue()) : -1;
}

int kokkosTileOf(const Instruction &I) {
  return metadataInteger(I.getMetadata(TilesKind), 0);
}

static KokkosTilePoint loopMark(const Instruction &I, const char *Kind) {
  const MDNode *N = I.getMetadata(Kind);
  return {metadataInteger(N, 0), metadataInteger(N, 1)};
}

KokkosTilePoint kokkosTilePointOf(const Instruction &I) {
  return loopMark(I, PointKind);
}

KokkosTilePoint kokkosTileCounterOf(const Instruction &I) {
  return loopMark(I, CounterKind);
}

std::string describeUnsupportedKokkosCall(const CallBase &Call) {
  std::string Name = kokkosName(Call.getCalledFunction());
  StringRef N(Name);
  if (isScanExecute(N))
    return "cannot differentiate Kokkos::parallel_scan ('" + Name +
           "'): scans are not supported; write the prefix sum as a loop "
           "over the range in one parallel_for, or differentiate the "
           "code after it";
  static const char *const Devices[] = {"Kokkos::Cuda",
                                        "Kokkos::Impl::Cuda",
                                        "Kokkos::HIP",
                                        "Kokkos::Impl::HIP",
                                        "Kokkos::Experimental::SYCL",
                                        "Kokkos::SYCL",
                                        "Kokkos::Experimental::HPX",
                                        "Kokkos::Threads",
                                        "Kokkos::Impl::ThreadsInternal",
                                        "Kokkos::Experimental::OpenMPTarget",
                                        "Kokkos::Experimental::OpenACC"};
  // What a team's threads synchronise and reduce through (TeamPolicy).
  // (HostThreadTeamData also holds a RangePolicy reduction's partial sums:
  // only its team functions are.)
  static const char *const Teams[] = {
      "Kokkos::Impl::HostBarrier", "Kokkos::Impl::HostThreadTeamMember",
      "Kokkos::Impl::HostThreadTeamData::team_",
      "Kokkos::Impl::HostThreadTeamData::organize_team"};
  for (const char *Team : Teams)
    if (N.starts_with(Team))
      return ("cannot differentiate '" + N +
              "': Kokkos team policies (TeamPolicy, team reductions and "
              "barriers) are not supported; write the kernel with a "
              "RangePolicy or MDRangePolicy")
          .str();
  for (const char *Device : Devices)
    if (N.starts_with(Device) && (N.size() == StringRef(Device).size() ||
                                  !isAlnum(N[StringRef(Device).size()])))
      return ("cannot differentiate '" + N +
              "': the engine differentiates Kokkos code on the Serial and "
              "OpenMP execution spaces only; run this kernel on one of them "
              "(Kokkos::DefaultHostExecutionSpace)")
          .str();
  return "";
}

} // namespace enzyme

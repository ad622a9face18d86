//===- MpiRuntime.cpp - What MPI programs call ----------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/MpiRuntime.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

bool haveMpiRules() { return ENZYME_HAVE_MPI_RULES; }

static StringRef calleeName(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee ? Callee->getName() : StringRef();
}

bool isMpiBarrier(const CallBase &Call) {
  return calleeName(Call) == "MPI_Barrier" && Call.arg_size() == 1;
}

bool isInactiveMpiCall(const CallBase &Call) {
  static const StringSet<> Names = {
      "MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Initialized",
      "MPI_Finalized", "MPI_Query_thread", "MPI_Comm_rank", "MPI_Comm_size",
      "MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_free", "MPI_Comm_compare",
      "MPI_Wtime", "MPI_Wtick", "MPI_Abort", "MPI_Get_count", "MPI_Type_size",
      "MPI_Error_string", "MPI_Get_processor_name",
      // Handles: what they describe is
      // checked where it is used.
      "MPI_Op_create", "MPI_Op_free", "MPI_Type_contiguous", "MPI_Type_vector",
      "MPI_Type_create_struct", "MPI_Type_commit", "MPI_Type_free",
      "MPI_Win_create", "MPI_Win_free", "MPI_Win_fence", "MPI_Request_free"};
  return Names.contains(calleeName(Call)) || isMpiBarrier(Call);
}

void emitMirroredMpiBarrier(IRBuilder<> &B, const CallBase &Barrier,
                            function_ref<Value *(Value *)> Primal) {
  Function *Callee = Barrier.getCalledFunction();
  B.CreateCall(Callee->getFunctionType(), Callee,
               {Primal(Barrier.getArgOperand(0))});
}

StringRef mpiGradientPrefix(StringRef Name) {
  return StringSwitch<StringRef>(Name)
      .Case("MPI_Send", "__enzyme_rt_mpi_send")
      .Case("MPI_Recv", "__enzyme_rt_mpi_recv")
      .Case("MPI_Isend", "__enzyme_rt_mpi_isend")
      .Case("MPI_Irecv", "__enzyme_rt_mpi_irecv")
      .Case("MPI_Wait", "__enzyme_rt_mpi_wait")
      .Case("MPI_Waitall", "__enzyme_rt_mpi_waitall")
      .Case("MPI_Bcast", "__enzyme_rt_mpi_bcast")
      .Case("MPI_Reduce", "__enzyme_rt_mpi_reduce")
      .Case("MPI_Allreduce", "__enzyme_rt_mpi_allreduce")
      .Case("MPI_Gather", "__enzyme_rt_mpi_gather")
      .Case("MPI_Scatter", "__enzyme_rt_mpi_scatter")
      .Case("MPI_Allgather", "__enzyme_rt_mpi_allgather")
      .Default("");
}

/// The operands of \p Name's datatypes, and of its reduction operator.
static void handleOperands(StringRef Name, SmallVectorImpl<unsigned> &Types,
                           std::optional<unsigned> &Op) {
  if (Name == "MPI_Send" || Name == "MPI_Recv" || Name == "MPI_Isend" ||
      Name == "MPI_Irecv" || Name == "MPI_Bcast")
    Types.push_back(2);
  else if (Name == "MPI_Reduce" || Name == "MPI_Allreduce") {
    Types.push_back(3);
    Op = 4;
  } else if (Name == "MPI_Gather" || Name == "MPI_Scatter" ||
             Name == "MPI_Allgather")
    Types.append({2u, 5u});
}

/// `ompi_mpi_double` -> `MPI_DOUBLE`.
static std::string handleName(StringRef Global, StringRef Prefix) {
  return ("MPI_" + Global.drop_front(Prefix.size()).upper());
}

std::string describeUnsupportedMpiCall(const CallBase &Call) {
  StringRef Name = calleeName(Call);
  if (!Name.starts_with("MPI_") && !Name.starts_with("PMPI_"))
    return "";
  if (isInactiveMpiCall(Call))
    return "";
  if (mpiGradientPrefix(Name).empty()) {
    std::string What = Name.contains("Put") || Name.contains("Get") ||
                               Name.contains("Accumulate") ||
                               Name.starts_with("MPI_Win")
                           ? " (one-sided communication)"
                           : "";
    return "cannot differentiate the MPI call '" + Name.str() + "'" + What +
           ": it has no derivative rule; docs/parallel.md lists the MPI "
           "calls that have one";
  }
  if (!haveMpiRules())
    return "cannot differentiate the MPI call '" + Name.str() +
           "': this toolchain was built without OpenMPI's headers "
           "(libopenmpi-dev), which its MPI rules need";
  SmallVector<unsigned, 2> Types;
  std::optional<unsigned> Op;
  handleOperands(Name, Types, Op);
  for (unsigned I : Types) {
    const auto *G =
        dyn_cast<GlobalValue>(Call.getArgOperand(I)->stripPointerCasts());
    if (!G || !G->getName().starts_with("ompi_mpi_"))
      return "cannot differentiate the MPI call '" + Name.str() +
             "': its datatype is made at run time (derived datatypes are "
             "not supported); send MPI_DOUBLE or MPI_FLOAT elements";
    static const StringSet<> Predefined = {
        "ompi_mpi_double",        "ompi_mpi_float",
        "ompi_mpi_int",           "ompi_mpi_long",
        "ompi_mpi_unsigned",      "ompi_mpi_unsigned_long",
        "ompi_mpi_long_long_int", "ompi_mpi_unsigned_long_long",
        "ompi_mpi_short",         "ompi_mpi_unsigned_short",
        "ompi_mpi_char",          "ompi_mpi_signed_char",
        "ompi_mpi_unsigned_char", "ompi_mpi_byte",
        "ompi_mpi_int8_t",        "ompi_mpi_int16_t",
        "ompi_mpi_int32_t",       "ompi_mpi_int64_t",
        "ompi_mpi_uint8_t",       "ompi_mpi_uint16_t",
        "ompi_mpi_uint32_t",      "ompi_mpi_uint64_t",
        "ompi_mpi_c_bool",        "ompi_mpi_cxx_bool"};
    if (!Predefined.contains(G->getName()))
      return "cannot differentiate the MPI call '" + Name.str() +
             "': the datatype " + handleName(G->getName(), "ompi_mpi_") +
             " has no derivative rule; send MPI_DOUBLE or MPI_FLOAT "
             "elements";
  }
  if (Op) {
    const auto *G =
        dyn_cast<GlobalValue>(Call.getArgOperand(*Op)->stripPointerCasts());
    StringRef OpName = G ? G->getName() : "";
    if (OpName != "ompi_mpi_op_sum" && OpName != "ompi_mpi_op_max" &&
        OpName != "ompi_mpi_op_min")
      return "cannot differentiate the MPI call '" + Name.str() + "': " +
             (OpName.starts_with("ompi_mpi_op_")
                  ? "the reduction operator " +
                        handleName(OpName, "ompi_mpi_op_")
                  : std::string("a user-defined reduction operator")) +
             " has no derivative rule; only MPI_SUM, MPI_MAX and MPI_MIN "
             "have one";
  }
  return "";
}

} // namespace enzyme

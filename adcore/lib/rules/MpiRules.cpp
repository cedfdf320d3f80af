//===- MpiRules.cpp - Derivatives of MPI calls ---------------------------===//
//
// One row per MPI call with a derivative rule: the runtime functions that do
// its forward derivative, its augmented call and its reverse, and their
// arguments, written over the call's parameters: `vK` the value of
// parameter K, `dK` its shadow (a tangent or adjoint buffer, null where the
// buffer carries none), `t` the tape (the augmented function's record). The
// functions the emitters call are small internal wrappers made from a row
// with the conventions of registered rules (CustomRules.h): the forward
// derivative returns {result, 0}; the augmented function {tape, result} or
// the result; the reverse function takes the augmented function's
// parameters, then the tape. The handles (datatypes, communicators,
// operators) pass through with the types the program's <mpi.h> gives them,
// which the runtime was compiled against (docs/parallel.md#mpi).
//
//===----------------------------------------------------------------------===//

#include "MpiRules.h"
#include "RuleWrappers.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace adcore {
namespace {

struct MpiRow {
  const char *Name;
  unsigned NumArgs;
  const char *Forward, *ForwardArgs;
  const char *Augmented, *AugmentedArgs;
  bool Tape; // (the augmented runtime function's last parameter: void **)
  const char *Reverse, *ReverseArgs;
  int TypeArg, TypeArg2, OpArg; // (checked at compile time; -1: none)
  /// The parameters whose memory the call writes (receive buffers,
  /// requests, statuses), as "K K ...": the rest it only reads.
  const char *Writes;
};

constexpr MpiRow MpiRows[] = {
    {"MPI_Send", 6, "adcc_mpi_send_fwd", "v0 d0 v1 v2 v3 v4 v5",
     "adcc_mpi_send_aug", "v0 v1 v2 v3 v4 v5", false, "adcc_mpi_send_rev",
     "d0 v1 v2 v3 v4 v5", 2, -1, -1, ""},
    {"MPI_Recv", 7, "adcc_mpi_recv_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_recv_aug", "v0 v1 v2 v3 v4 v5 v6", true, "adcc_mpi_recv_rev",
     "d0 v2 v5 t", 2, -1, -1, "0 6"},
    {"MPI_Sendrecv", 12, "adcc_mpi_sendrecv_fwd",
     "v0 d0 v1 v2 v3 v4 v5 d5 v6 v7 v8 v9 v10 v11", "adcc_mpi_sendrecv_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8 v9 v10 v11", true, "adcc_mpi_sendrecv_rev",
     "d0 v1 v2 v3 v4 d5 v7 v10 t", 2, 7, -1, "5 11"},
    {"MPI_Isend", 7, "adcc_mpi_isend_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_isend_aug", "v0 d0 v1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_isend_rev", "t", 2, -1, -1, "6"},
    {"MPI_Irecv", 7, "adcc_mpi_irecv_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_irecv_aug", "v0 d0 v1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_irecv_rev", "t", 2, -1, -1, "0 6"},
    {"MPI_Wait", 2, "adcc_mpi_wait_fwd", "v0 v1", "adcc_mpi_wait_aug", "v0 v1",
     true, "adcc_mpi_wait_rev", "t", -1, -1, -1, "0 1"},
    {"MPI_Waitall", 3, "adcc_mpi_waitall_fwd", "v0 v1 v2",
     "adcc_mpi_waitall_aug", "v0 v1 v2", true, "adcc_mpi_waitall_rev", "t", -1,
     -1, -1, "1 2"},
    {"MPI_Test", 3, "adcc_mpi_test_fwd", "v0 v1 v2", "adcc_mpi_test_aug",
     "v0 v1 v2", true, "adcc_mpi_completed_rev", "t", -1, -1, -1, "0 1 2"},
    {"MPI_Waitany", 4, "adcc_mpi_waitany_fwd", "v0 v1 v2 v3",
     "adcc_mpi_waitany_aug", "v0 v1 v2 v3", true, "adcc_mpi_completed_rev", "t",
     -1, -1, -1, "1 2 3"},
    {"MPI_Waitsome", 5, "adcc_mpi_waitsome_fwd", "v0 v1 v2 v3 v4",
     "adcc_mpi_waitsome_aug", "v0 v1 v2 v3 v4", true, "adcc_mpi_waitall_rev",
     "t", -1, -1, -1, "1 2 3 4"},
    {"MPI_Testany", 5, "adcc_mpi_testany_fwd", "v0 v1 v2 v3 v4",
     "adcc_mpi_testany_aug", "v0 v1 v2 v3 v4", true, "adcc_mpi_completed_rev",
     "t", -1, -1, -1, "1 2 3 4"},
    {"MPI_Testall", 4, "adcc_mpi_testall_fwd", "v0 v1 v2 v3",
     "adcc_mpi_testall_aug", "v0 v1 v2 v3", true, "adcc_mpi_waitall_rev", "t",
     -1, -1, -1, "1 2 3"},
    {"MPI_Testsome", 5, "adcc_mpi_testsome_fwd", "v0 v1 v2 v3 v4",
     "adcc_mpi_testsome_aug", "v0 v1 v2 v3 v4", true, "adcc_mpi_waitall_rev",
     "t", -1, -1, -1, "1 2 3 4"},
    {"MPI_Bcast", 5, "adcc_mpi_bcast_fwd", "v0 d0 v1 v2 v3 v4",
     "adcc_mpi_bcast_aug", "v0 v1 v2 v3 v4", false, "adcc_mpi_bcast_rev",
     "d0 v1 v2 v3 v4", 2, -1, -1, "0"},
    {"MPI_Reduce", 7, "adcc_mpi_reduce_fwd", "v0 d0 v1 d1 v2 v3 v4 v5 v6",
     "adcc_mpi_reduce_aug", "v0 v1 v2 v3 v4 v5 v6", true, "adcc_mpi_reduce_rev",
     "v0 d0 d1 v2 v3 v5 v6 t", 3, -1, 4, "1"},
    {"MPI_Allreduce", 6, "adcc_mpi_allreduce_fwd", "v0 d0 v1 d1 v2 v3 v4 v5",
     "adcc_mpi_allreduce_aug", "v0 v1 v2 v3 v4 v5", true,
     "adcc_mpi_allreduce_rev", "v0 d0 d1 v2 v3 v5 t", 3, -1, 4, "1"},
    {"MPI_Gather", 8, "adcc_mpi_gather_fwd", "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7",
     "adcc_mpi_gather_aug", "v0 v1 v2 v3 v4 v5 v6 v7", false,
     "adcc_mpi_gather_rev", "v0 d0 v1 v2 d3 v4 v5 v6 v7", 2, 5, -1, "3"},
    {"MPI_Scatter", 8, "adcc_mpi_scatter_fwd", "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7",
     "adcc_mpi_scatter_aug", "v0 v1 v2 v3 v4 v5 v6 v7", false,
     "adcc_mpi_scatter_rev", "d0 v1 v2 v3 d3 v4 v5 v6 v7", 2, 5, -1, "3"},
    {"MPI_Allgather", 7, "adcc_mpi_allgather_fwd", "v0 d0 v1 v2 v3 d3 v4 v5 v6",
     "adcc_mpi_allgather_aug", "v0 v1 v2 v3 v4 v5 v6", false,
     "adcc_mpi_allgather_rev", "v0 d0 v1 v2 d3 v4 v5 v6", 2, 5, -1, "3"},
    {"MPI_Barrier", 1, "adcc_mpi_barrier", "v0", "adcc_mpi_barrier", "v0",
     false, "adcc_mpi_barrier_rev", "v0", -1, -1, -1, ""},
    // (Completed by any wait or test, as a request of the program's; a
    // barrier in the reverse sweep at the reverse of the start.)
    {"MPI_Ibarrier", 2, "MPI_Ibarrier", "v0 v1", "MPI_Ibarrier", "v0 v1",
     false, "adcc_mpi_barrier_rev", "v0", -1, -1, -1, "1"},
    {"MPI_Sendrecv_replace", 9, "adcc_mpi_sendrecv_replace_fwd",
     "v0 d0 v1 v2 v3 v4 v5 v6 v7 v8", "adcc_mpi_sendrecv_replace_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8", true, "adcc_mpi_sendrecv_replace_rev",
     "d0 v1 v2 v3 v4 v7 t", 2, -1, -1, "0 8"},
    // The other send modes (runtime/lib/mpi/sendmodes.c): MPI_Send's and
    // MPI_Isend's rules in the mode of the call.
    {"MPI_Ssend", 6, "adcc_mpi_ssend_fwd", "v0 d0 v1 v2 v3 v4 v5",
     "adcc_mpi_ssend_aug", "v0 v1 v2 v3 v4 v5", false, "adcc_mpi_ssend_rev",
     "d0 v1 v2 v3 v4 v5", 2, -1, -1, ""},
    {"MPI_Rsend", 6, "adcc_mpi_rsend_fwd", "v0 d0 v1 v2 v3 v4 v5",
     "adcc_mpi_rsend_aug", "v0 v1 v2 v3 v4 v5", false, "adcc_mpi_rsend_rev",
     "d0 v1 v2 v3 v4 v5", 2, -1, -1, ""},
    {"MPI_Bsend", 6, "adcc_mpi_bsend_fwd", "v0 d0 v1 v2 v3 v4 v5",
     "adcc_mpi_bsend_aug", "v0 v1 v2 v3 v4 v5", false, "adcc_mpi_bsend_rev",
     "d0 v1 v2 v3 v4 v5", 2, -1, -1, ""},
    {"MPI_Buffer_detach", 2, "adcc_mpi_buffer_detach", "v0 v1",
     "adcc_mpi_buffer_detach", "v0 v1", false, "adcc_mpi_buffer_detach_rev",
     "", -1, -1, -1, "0 1"},
    {"MPI_Issend", 7, "adcc_mpi_issend_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_issend_aug", "v0 d0 v1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_isend_rev", "t", 2, -1, -1, "6"},
    {"MPI_Irsend", 7, "adcc_mpi_irsend_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_irsend_aug", "v0 d0 v1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_isend_rev", "t", 2, -1, -1, "6"},
    {"MPI_Ibsend", 7, "adcc_mpi_ibsend_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_ibsend_aug", "v0 d0 v1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_isend_rev", "t", 2, -1, -1, "6"},
    // Probes and counts (runtime/lib/mpi/probes.c): no derivative, but
    // forward mode's count of a probed message of doubles or floats is the
    // primal's, half the packed message's.
    {"MPI_Probe", 4, "adcc_mpi_probe_fwd", "v0 v1 v2 v3", "MPI_Probe",
     "v0 v1 v2 v3", false, "adcc_mpi_inactive_rev", "", -1, -1, -1, "3"},
    {"MPI_Iprobe", 5, "adcc_mpi_iprobe_fwd", "v0 v1 v2 v3 v4", "MPI_Iprobe",
     "v0 v1 v2 v3 v4", false, "adcc_mpi_inactive_rev", "", -1, -1, -1, "3 4"},
    // Matched probes and their receives (runtime/lib/mpi/mprobes.c): the
    // probes note the message's communicator, the receives are MPI_Recv's
    // and MPI_Irecv's.
    {"MPI_Mprobe", 5, "adcc_mpi_mprobe_fwd", "v0 v1 v2 v3 v4",
     "adcc_mpi_mprobe_aug", "v0 v1 v2 v3 v4", false, "adcc_mpi_inactive_rev",
     "", -1, -1, -1, "3 4"},
    {"MPI_Improbe", 6, "adcc_mpi_improbe_fwd", "v0 v1 v2 v3 v4 v5",
     "adcc_mpi_improbe_aug", "v0 v1 v2 v3 v4 v5", false,
     "adcc_mpi_inactive_rev", "", -1, -1, -1, "3 4 5"},
    {"MPI_Mrecv", 5, "adcc_mpi_mrecv_fwd", "v0 d0 v1 v2 v3 v4",
     "adcc_mpi_mrecv_aug", "v0 v1 v2 v3 v4", true, "adcc_mpi_mrecv_rev",
     "d0 v2 t", 2, -1, -1, "0 3 4"},
    {"MPI_Imrecv", 5, "adcc_mpi_imrecv_fwd", "v0 d0 v1 v2 v3 v4",
     "adcc_mpi_imrecv_aug", "v0 d0 v1 v2 v3 v4", true, "adcc_mpi_irecv_rev",
     "t", 2, -1, -1, "0 3 4"},
    {"MPI_Get_count", 3, "adcc_mpi_get_count_fwd", "v0 v1 v2", "MPI_Get_count",
     "v0 v1 v2", false, "adcc_mpi_inactive_rev", "", -1, -1, -1, "2"},
    {"MPI_Get_elements", 3, "adcc_mpi_get_elements_fwd", "v0 v1 v2",
     "MPI_Get_elements", "v0 v1 v2", false, "adcc_mpi_inactive_rev", "", -1,
     -1, -1, "2"},
    // All-to-all, prefix sums, reduce-scatters (runtime/lib/mpi/exchanges.c)
    // and the gathers of blocks of several sizes (vgathers.c).
    {"MPI_Alltoall", 7, "adcc_mpi_alltoall_fwd", "v0 d0 v1 v2 v3 d3 v4 v5 v6",
     "adcc_mpi_alltoall_aug", "v0 v1 v2 v3 v4 v5 v6", false,
     "adcc_mpi_alltoall_rev", "v0 d0 v1 v2 d3 v4 v5 v6", 2, 5, -1, "3"},
    {"MPI_Scan", 6, "adcc_mpi_scan_fwd", "v0 d0 v1 d1 v2 v3 v4 v5",
     "adcc_mpi_scan_aug", "v0 v1 v2 v3 v4 v5", false, "adcc_mpi_scan_rev",
     "v0 d0 d1 v2 v3 v5", 3, -1, 4, "1"},
    {"MPI_Exscan", 6, "adcc_mpi_exscan_fwd", "v0 d0 v1 d1 v2 v3 v4 v5",
     "adcc_mpi_exscan_aug", "v0 v1 v2 v3 v4 v5", false, "adcc_mpi_exscan_rev",
     "v0 d0 d1 v2 v3 v5", 3, -1, 4, "1"},
    {"MPI_Reduce_scatter_block", 6, "adcc_mpi_reduce_scatter_block_fwd",
     "v0 d0 v1 d1 v2 v3 v4 v5", "adcc_mpi_reduce_scatter_block_aug",
     "v0 v1 v2 v3 v4 v5", false, "adcc_mpi_reduce_scatter_block_rev",
     "v0 d0 d1 v2 v3 v5", 3, -1, 4, "1"},
    // (The counts and displacements of these: the tape's, the program's
    // arrays may be gone in the reverse sweep.)
    {"MPI_Reduce_scatter", 6, "adcc_mpi_reduce_scatter_fwd",
     "v0 d0 v1 d1 v2 v3 v4 v5", "adcc_mpi_reduce_scatter_aug",
     "v0 v1 v2 v3 v4 v5", true, "adcc_mpi_reduce_scatter_rev",
     "v0 d0 d1 v3 v5 t", 3, -1, 4, "1"},
    {"MPI_Gatherv", 9, "adcc_mpi_gatherv_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", "adcc_mpi_gatherv_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8", true, "adcc_mpi_gatherv_rev",
     "v0 d0 v1 v2 d3 v6 v7 v8 t", 2, 6, -1, "3"},
    {"MPI_Scatterv", 9, "adcc_mpi_scatterv_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8", "adcc_mpi_scatterv_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8", true, "adcc_mpi_scatterv_rev",
     "d0 v3 v4 d4 v5 v6 v7 v8 t", 3, 6, -1, "4"},
    {"MPI_Allgatherv", 8, "adcc_mpi_allgatherv_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", "adcc_mpi_allgatherv_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7", true, "adcc_mpi_allgatherv_rev",
     "v0 d0 v1 v2 d3 v6 v7 t", 2, 6, -1, "3"},
    // (Send blocks may overlap; runtime/lib/mpi/alltoallv.c.)
    {"MPI_Alltoallv", 9, "adcc_mpi_alltoallv_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8", "adcc_mpi_alltoallv_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8", true, "adcc_mpi_alltoallv_rev",
     "v0 d0 v3 d4 v7 v8 t", 3, 7, -1, "4"},
    // (A datatype per block, displacements in bytes:
    // runtime/lib/mpi/alltoallw.c.)
    {"MPI_Alltoallw", 9, "adcc_mpi_alltoallw_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8", "adcc_mpi_alltoallw_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8", true, "adcc_mpi_alltoallw_rev",
     "v0 d0 d4 v8 t", -1, -1, -1, "4"},
    // Communicators made and freed in differentiated code
    // (runtime/lib/mpi/comms.c): freed at the reverse of the call that made
    // them, after their adjoint messages.
    {"MPI_Comm_dup", 2, "MPI_Comm_dup", "v0 v1", "adcc_mpi_comm_dup_aug",
     "v0 v1", true, "adcc_mpi_comm_made_rev", "t", -1, -1, -1, "1"},
    {"MPI_Comm_split", 4, "MPI_Comm_split", "v0 v1 v2 v3",
     "adcc_mpi_comm_split_aug", "v0 v1 v2 v3", true, "adcc_mpi_comm_made_rev",
     "t", -1, -1, -1, "3"},
    {"MPI_Comm_free", 1, "MPI_Comm_free", "v0", "adcc_mpi_comm_free_aug", "v0",
     false, "adcc_mpi_comm_free_rev", "", -1, -1, -1, "0"},
    // Persistent requests (runtime/lib/mpi/persistent.c).
    {"MPI_Send_init", 7, "adcc_mpi_send_init_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_send_init_aug", "v0 d0 v1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_persistent_rev", "t", 2, -1, -1, "6"},
    {"MPI_Recv_init", 7, "adcc_mpi_recv_init_fwd", "v0 d0 v1 v2 v3 v4 v5 v6",
     "adcc_mpi_recv_init_aug", "v0 d0 v1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_persistent_rev", "t", 2, -1, -1, "0 6"},
    {"MPI_Start", 1, "adcc_mpi_start_fwd", "v0", "adcc_mpi_start_aug", "v0",
     true, "adcc_mpi_start_rev", "t", -1, -1, -1, "0"},
    {"MPI_Startall", 2, "adcc_mpi_startall_fwd", "v0 v1",
     "adcc_mpi_startall_aug", "v0 v1", true, "adcc_mpi_startall_rev", "t", -1,
     -1, -1, "1"},
    {"MPI_Request_free", 1, "adcc_mpi_request_free", "v0",
     "adcc_mpi_request_free", "v0", false, "adcc_mpi_request_free_rev", "", -1,
     -1, -1, "0"},
    // Nonblocking collectives (runtime/lib/mpi/icollectives.c).
    {"MPI_Ibcast", 6, "adcc_mpi_ibcast_fwd", "v0 d0 v1 v2 v3 v4 v5",
     "adcc_mpi_ibcast_aug", "v0 d0 v1 v2 v3 v4 v5", true,
     "adcc_mpi_icollective_rev", "t", 2, -1, -1, "0 5"},
    {"MPI_Ireduce", 8, "adcc_mpi_ireduce_fwd", "v0 d0 v1 d1 v2 v3 v4 v5 v6 v7",
     "adcc_mpi_ireduce_aug", "v0 d0 v1 d1 v2 v3 v4 v5 v6 v7", true,
     "adcc_mpi_icollective_rev", "t", 3, -1, 4, "1 7"},
    {"MPI_Iallreduce", 7, "adcc_mpi_iallreduce_fwd",
     "v0 d0 v1 d1 v2 v3 v4 v5 v6", "adcc_mpi_iallreduce_aug",
     "v0 d0 v1 d1 v2 v3 v4 v5 v6", true, "adcc_mpi_icollective_rev", "t", 3, -1,
     4, "1 6"},
    {"MPI_Igather", 9, "adcc_mpi_igather_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", "adcc_mpi_igather_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", true, "adcc_mpi_icollective_rev", "t",
     2, 5, -1, "3 8"},
    {"MPI_Iscatter", 9, "adcc_mpi_iscatter_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", "adcc_mpi_iscatter_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", true, "adcc_mpi_icollective_rev", "t",
     2, 5, -1, "3 8"},
    {"MPI_Iallgather", 8, "adcc_mpi_iallgather_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", "adcc_mpi_iallgather_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", true, "adcc_mpi_icollective_rev", "t", 2,
     5, -1, "3 7"},
    {"MPI_Ialltoall", 8, "adcc_mpi_ialltoall_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", "adcc_mpi_ialltoall_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", true, "adcc_mpi_icollective_rev", "t", 2,
     5, -1, "3 7"},
    // Nonblocking prefix sums and reduce-scatters
    // (runtime/lib/mpi/iexchanges.c).
    {"MPI_Iscan", 7, "adcc_mpi_iscan_fwd", "v0 d0 v1 d1 v2 v3 v4 v5 v6",
     "adcc_mpi_iscan_aug", "v0 d0 v1 d1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_icollective_rev", "t", 3, -1, 4, "1 6"},
    {"MPI_Iexscan", 7, "adcc_mpi_iexscan_fwd", "v0 d0 v1 d1 v2 v3 v4 v5 v6",
     "adcc_mpi_iexscan_aug", "v0 d0 v1 d1 v2 v3 v4 v5 v6", true,
     "adcc_mpi_icollective_rev", "t", 3, -1, 4, "1 6"},
    {"MPI_Ireduce_scatter_block", 7, "adcc_mpi_ireduce_scatter_block_fwd",
     "v0 d0 v1 d1 v2 v3 v4 v5 v6", "adcc_mpi_ireduce_scatter_block_aug",
     "v0 d0 v1 d1 v2 v3 v4 v5 v6", true, "adcc_mpi_icollective_rev", "t", 3,
     -1, 4, "1 6"},
    {"MPI_Ireduce_scatter", 7, "adcc_mpi_ireduce_scatter_fwd",
     "v0 d0 v1 d1 v2 v3 v4 v5 v6", "adcc_mpi_ireduce_scatter_aug",
     "v0 d0 v1 d1 v2 v3 v4 v5 v6", true, "adcc_mpi_icollective_rev", "t", 3,
     -1, 4, "1 6"},
    // Nonblocking gathers of blocks of several sizes
    // (runtime/lib/mpi/ivgathers.c).
    {"MPI_Igatherv", 10, "adcc_mpi_igatherv_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8 v9", "adcc_mpi_igatherv_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8 v9", true, "adcc_mpi_icollective_rev",
     "t", 2, 6, -1, "3 9"},
    {"MPI_Iallgatherv", 9, "adcc_mpi_iallgatherv_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", "adcc_mpi_iallgatherv_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", true, "adcc_mpi_icollective_rev",
     "t", 2, 6, -1, "3 8"},
    {"MPI_Iscatterv", 10, "adcc_mpi_iscatterv_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", "adcc_mpi_iscatterv_aug",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", true, "adcc_mpi_icollective_rev",
     "t", 3, 6, -1, "4 9"},
    {"MPI_Ialltoallv", 10, "adcc_mpi_ialltoallv_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", "adcc_mpi_ialltoallv_aug",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", true, "adcc_mpi_icollective_rev",
     "t", 3, 7, -1, "4 9"},
    // (A datatype per block: runtime/lib/mpi/alltoallw.c.)
    {"MPI_Ialltoallw", 10, "adcc_mpi_ialltoallw_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", "adcc_mpi_ialltoallw_aug",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", true, "adcc_mpi_icollective_rev",
     "t", -1, -1, -1, "4 9"},
    // Neighbourhood collectives (runtime/lib/mpi/neighbors.c; reverse mode
    // on Cartesian communicators).
    {"MPI_Neighbor_allgather", 7, "adcc_mpi_neighbor_allgather_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6", "MPI_Neighbor_allgather",
     "v0 v1 v2 v3 v4 v5 v6", false, "adcc_mpi_neighbor_allgather_rev",
     "d0 v1 v2 d3 v4 v5 v6", 2, 5, -1, "3"},
    {"MPI_Neighbor_alltoall", 7, "adcc_mpi_neighbor_alltoall_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6", "MPI_Neighbor_alltoall",
     "v0 v1 v2 v3 v4 v5 v6", false, "adcc_mpi_neighbor_alltoall_rev",
     "d0 v1 v2 d3 v4 v5 v6", 2, 5, -1, "3"},
    // (Blocks of several sizes, their counts and displacements on the
    // tape: runtime/lib/mpi/vneighbors.c.)
    {"MPI_Neighbor_allgatherv", 8, "adcc_mpi_neighbor_allgatherv_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", "adcc_mpi_neighbor_allgatherv_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7", true, "adcc_mpi_neighbor_allgatherv_rev",
     "d0 v1 v2 d3 v6 v7 t", 2, 6, -1, "3"},
    {"MPI_Neighbor_alltoallv", 9, "adcc_mpi_neighbor_alltoallv_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8", "adcc_mpi_neighbor_alltoallv_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8", true, "adcc_mpi_neighbor_alltoallv_rev",
     "d0 d4 v8 t", 3, 7, -1, "4"},
    {"MPI_Neighbor_alltoallw", 9, "adcc_mpi_neighbor_alltoallw_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8", "adcc_mpi_neighbor_alltoallw_aug",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8", true, "adcc_mpi_neighbor_alltoallw_rev",
     "d0 d4 v8 t", -1, -1, -1, "4"},
    // (Nonblocking: runtime/lib/mpi/ineighbors.c.)
    {"MPI_Ineighbor_allgather", 8, "adcc_mpi_ineighbor_allgather_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", "adcc_mpi_ineighbor_allgather_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", true, "adcc_mpi_icollective_rev", "t",
     2, 5, -1, "3 7"},
    {"MPI_Ineighbor_alltoall", 8, "adcc_mpi_ineighbor_alltoall_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", "adcc_mpi_ineighbor_alltoall_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7", true, "adcc_mpi_icollective_rev", "t",
     2, 5, -1, "3 7"},
    {"MPI_Ineighbor_allgatherv", 9, "adcc_mpi_ineighbor_allgatherv_fwd",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", "adcc_mpi_ineighbor_allgatherv_aug",
     "v0 d0 v1 v2 v3 d3 v4 v5 v6 v7 v8", true, "adcc_mpi_icollective_rev",
     "t", 2, 6, -1, "3 8"},
    {"MPI_Ineighbor_alltoallv", 10, "adcc_mpi_ineighbor_alltoallv_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", "adcc_mpi_ineighbor_alltoallv_aug",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", true, "adcc_mpi_icollective_rev",
     "t", 3, 7, -1, "4 9"},
    {"MPI_Ineighbor_alltoallw", 10, "adcc_mpi_ineighbor_alltoallw_fwd",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", "adcc_mpi_ineighbor_alltoallw_aug",
     "v0 d0 v1 v2 v3 v4 d4 v5 v6 v7 v8 v9", true, "adcc_mpi_icollective_rev",
     "t", -1, -1, -1, "4 9"},
};

/// MPI calls without derivatives: they compute no floating-point data.
/// Writes: the parameters whose memory they write, as in MpiRow.
struct InactiveMpi {
  const char *Name;
  const char *Writes;
};
constexpr InactiveMpi InactiveMpiCalls[] = {
    {"MPI_Comm_rank", "1"},
    {"MPI_Comm_size", "1"},
    {"MPI_Wtime", ""},
    {"MPI_Wtick", ""},
    {"MPI_Initialized", "0"},
    {"MPI_Finalized", "0"},
    {"MPI_Abort", ""},
    {"MPI_Get_processor_name", "0 1"},
    {"MPI_Type_size", "1"},
    {"MPI_Error_string", "1 2"},
    {"MPI_Comm_group", "1"},
    {"MPI_Group_rank", "1"},
    {"MPI_Group_size", "1"},
    {"MPI_Cart_coords", "3"},
    {"MPI_Cart_rank", "2"},
    {"MPI_Cart_shift", "3 4"},
    {"MPI_Cart_get", "2 3 4"},
    {"MPI_Cartdim_get", "1"},
    {"MPI_Dims_create", "2"},
    {"MPI_Topo_test", "1"},
    {"MPI_Comm_compare", "2"},
    {"MPI_Query_thread", "0"},
    {"MPI_Is_thread_main", "0"},
    {"MPI_Buffer_attach", ""},
    // (Communicators and groups: handles, no floating-point data. Those
    // made by MPI_Comm_split_type, MPI_Comm_create, MPI_Cart_create and
    // freed in the differentiated code stay allocated in reverse mode:
    // MPI_Comm_free's row.)
    {"MPI_Comm_split_type", "4"},
    {"MPI_Comm_create", "2"},
    {"MPI_Cart_create", "5"},
    {"MPI_Group_incl", "3"},
    {"MPI_Group_free", "0"},
};

/// Refused in differentiated code, with what they are: a name, or the
/// start of names (`MPI_Win_`).
struct RefusedMpi {
  const char *Name;
  bool Prefix;
  const char *What;
};
constexpr RefusedMpi RefusedMpiCalls[] = {
    {"MPI_Win_", true, "one-sided communication (MPI windows)"},
    {"MPI_Put", false, "one-sided communication"},
    {"MPI_Rput", false, "one-sided communication"},
    {"MPI_Get", false, "one-sided communication"},
    {"MPI_Rget", false, "one-sided communication"},
    {"MPI_Accumulate", false, "one-sided communication"},
    {"MPI_Raccumulate", false, "one-sided communication"},
    {"MPI_Get_accumulate", false, "one-sided communication"},
    {"MPI_Rget_accumulate", false, "one-sided communication"},
    {"MPI_Fetch_and_op", false, "one-sided communication"},
    {"MPI_Compare_and_swap", false, "one-sided communication"},
    {"MPI_Comm_spawn", true, "spawning processes"},
    {"MPI_Op_create", false, "a user-defined reduction operator"},
};

/// OpenMPI's predefined datatypes and operators are globals named
/// ompi_mpi_<name> and ompi_mpi_op_<name>.
constexpr const char *ActiveTypes[] = {"double", "float"};
constexpr const char *InactiveTypes[] = {
    "char",    "signed_char",    "unsigned_char", "byte",
    "short",   "unsigned_short", "int",           "unsigned",
    "long",    "unsigned_long",  "long_long_int", "unsigned_long_long",
    "int8_t",  "int16_t",        "int32_t",       "int64_t",
    "uint8_t", "uint16_t",       "uint32_t",      "uint64_t",
    "c_bool",  "wchar",          "aint",          "offset",
    "count"};
constexpr const char *RuleOps[] = {"sum", "min", "max"};
/// Calls whose rule is for MPI_SUM only (a prefix or a reduce-scatter by a
/// minimum or maximum has none).
constexpr const char *SumOnlyCalls[] = {
    "MPI_Scan",           "MPI_Exscan",
    "MPI_Reduce_scatter", "MPI_Reduce_scatter_block",
    "MPI_Iscan",          "MPI_Ireduce_scatter",
    "MPI_Ireduce_scatter_block", "MPI_Iexscan"};

const MpiRow *findRow(StringRef Name) {
  for (const MpiRow &Row : MpiRows)
    if (Name == Row.Name)
      return &Row;
  return nullptr;
}

const InactiveMpi *findInactive(StringRef Name) {
  for (const InactiveMpi &Row : InactiveMpiCalls)
    if (Name == Row.Name)
      return &Row;
  return nullptr;
}

const MpiRow *rowFor(const Function &F) {
  const MpiRow *Row = findRow(F.getName());
  if (!Row || !F.isDeclaration() || F.arg_size() != Row->NumArgs ||
      F.isVarArg() || !F.getReturnType()->isIntegerTy(32))
    return nullptr;
  return Row;
}

/// The wrapper's parameters: each of F's, a pointer followed by its shadow.
SmallVector<Type *, 16> interleaved(const Function &F) {
  SmallVector<Type *, 16> Types;
  for (const Argument &A : F.args()) {
    Types.push_back(A.getType());
    if (A.getType()->isPointerTy())
      Types.push_back(A.getType());
  }
  return Types;
}

/// The arguments \p Spec names, from a wrapper \p W of F's parameters.
SmallVector<Value *, 16> specArgs(const Function &F, Function &W,
                                  StringRef Spec, Value *Tape) {
  SmallVector<unsigned, 16> At; // (parameter K's value in W)
  unsigned Next = 0;
  for (const Argument &A : F.args()) {
    At.push_back(Next);
    Next += A.getType()->isPointerTy() ? 2 : 1;
  }
  SmallVector<StringRef, 12> Tokens;
  Spec.split(Tokens, ' ', -1, false);
  SmallVector<Value *, 16> Args;
  for (StringRef T : Tokens) {
    if (T == "t") {
      Args.push_back(Tape);
      continue;
    }
    unsigned K = 0;
    T.drop_front().getAsInteger(10, K);
    Args.push_back(W.getArg(At[K] + (T.front() == 'd' ? 1 : 0)));
  }
  return Args;
}

} // namespace

bool isMpiRuleFunction(const Function &F) { return rowFor(F) != nullptr; }

Function *mpiForwardRule(const Function &F) {
  const MpiRow *Row = rowFor(F);
  if (!Row)
    return nullptr;
  Module &M = *const_cast<Module *>(F.getParent());
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  Function *W = makeRuleWrapper(
      M, ("adcc.mpi.fwd." + F.getName()).str(),
      FunctionType::get(StructType::get(I32, I32), interleaved(F), false));
  if (!W->empty())
    return W;
  IRBuilder<> B(BasicBlock::Create(C, "entry", W));
  SmallVector<Value *, 16> Args = specArgs(F, *W, Row->ForwardArgs, nullptr);
  Value *RC = B.CreateCall(runtimeFunction(M, Row->Forward, I32, Args), Args);
  Value *Pair = B.CreateInsertValue(
      ConstantAggregateZero::get(W->getReturnType()), RC, 0);
  B.CreateRet(Pair);
  return W;
}

bool mpiGradientRule(const Function &F, Function *&Augmented,
                     Function *&Reverse) {
  const MpiRow *Row = rowFor(F);
  if (!Row)
    return false;
  Module &M = *const_cast<Module *>(F.getParent());
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  Type *Ptr = PointerType::get(C, 0);
  SmallVector<Type *, 16> Params = interleaved(F);
  Type *AugRet = Row->Tape ? StructType::get(Ptr, I32) : I32;
  Augmented = makeRuleWrapper(M, ("adcc.mpi.aug." + F.getName()).str(),
                          FunctionType::get(AugRet, Params, false));
  SmallVector<Type *, 16> RevParams(Params);
  if (Row->Tape)
    RevParams.push_back(Ptr);
  Reverse =
      makeRuleWrapper(M, ("adcc.mpi.rev." + F.getName()).str(),
                  FunctionType::get(Type::getVoidTy(C), RevParams, false));
  if (Augmented->empty()) {
    IRBuilder<> B(BasicBlock::Create(C, "entry", Augmented));
    Value *Slot = Row->Tape ? B.CreateAlloca(Ptr, nullptr, "tape") : nullptr;
    SmallVector<Value *, 16> Args =
        specArgs(F, *Augmented, Row->AugmentedArgs, nullptr);
    if (Slot)
      Args.push_back(Slot);
    Value *RC =
        B.CreateCall(runtimeFunction(M, Row->Augmented, I32, Args), Args);
    if (!Slot) {
      B.CreateRet(RC);
    } else {
      Value *Pair = B.CreateInsertValue(PoisonValue::get(AugRet),
                                        B.CreateLoad(Ptr, Slot), 0);
      B.CreateRet(B.CreateInsertValue(Pair, RC, 1));
    }
  }
  if (Reverse->empty()) {
    IRBuilder<> B(BasicBlock::Create(C, "entry", Reverse));
    Value *Tape =
        Row->Tape ? Reverse->getArg(Reverse->arg_size() - 1) : nullptr;
    SmallVector<Value *, 16> Args =
        specArgs(F, *Reverse, Row->ReverseArgs, Tape);
    B.CreateCall(runtimeFunction(M, Row->Reverse, Type::getVoidTy(C), Args),
                 Args);
    B.CreateRetVoid();
  }
  return true;
}

bool isInactiveMpiFunction(const Function &F) {
  if (!F.isDeclaration())
    return false;
  return findInactive(F.getName()) != nullptr;
}

bool mpiWrittenArguments(const Function &F,
                         SmallVectorImpl<unsigned> &Written) {
  if (!F.isDeclaration())
    return false;
  const char *Writes = nullptr;
  if (const MpiRow *Row = rowFor(F))
    Writes = Row->Writes;
  else if (const InactiveMpi *Row = findInactive(F.getName()))
    Writes = Row->Writes;
  if (!Writes)
    return false;
  SmallVector<StringRef, 4> Tokens;
  StringRef(Writes).split(Tokens, ' ', -1, false);
  for (StringRef T : Tokens) {
    unsigned K = 0;
    if (T.getAsInteger(10, K) || K >= F.arg_size() ||
        !F.getArg(K)->getType()->isPointerTy())
      return false; // (not the declaration <mpi.h> gives: unknown)
    Written.push_back(K);
  }
  return true;
}

namespace {

/// The predefined handle \p V names (`double` for ompi_mpi_double), or
/// empty when it is not a constant predefined one.
StringRef predefinedName(const Value *V, StringRef Prefix) {
  const auto *G = dyn_cast<GlobalValue>(V->stripPointerCasts());
  if (!G || !G->getName().starts_with(Prefix))
    return StringRef();
  return G->getName().drop_front(Prefix.size());
}

bool listed(ArrayRef<const char *> List, StringRef Name) {
  return any_of(List, [&](const char *Row) { return Name == Row; });
}

std::string upper(StringRef Name) { return Name.upper(); }

/// Whether \p V is MPI_IN_PLACE (OpenMPI's `(void *)1`).
bool isInPlace(const Value *V) {
  const auto *CE = dyn_cast<ConstantExpr>(V);
  if (!CE || CE->getOpcode() != Instruction::IntToPtr)
    return false;
  const auto *One = dyn_cast<ConstantInt>(CE->getOperand(0));
  return One && One->isOne();
}

} // namespace

std::string mpiCallError(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || !F->isDeclaration())
    return std::string();
  StringRef Name = F->getName();
  for (const RefusedMpi &Row : RefusedMpiCalls)
    if (Row.Prefix ? Name.starts_with(Row.Name) : Name == Row.Name)
      return "'" + Name.str() + "' (" + Row.What +
             ") cannot be differentiated; adcc differentiates MPI "
             "point-to-point messages and collectives "
             "(docs/parallel.md#mpi): move the call out of the "
             "differentiated code";
  const MpiRow *Row = rowFor(*F);
  if (!Row)
    return std::string();
  bool Active = false;
  for (int No : {Row->TypeArg, Row->TypeArg2}) {
    if (No < 0)
      continue;
    StringRef Type = predefinedName(Call.getArgOperand(No), "ompi_mpi_");
    if (Type.empty())
      continue; // (a handle known at run time: the runtime checks it)
    // (MPI ignores the datatype of the other side of an in-place call.)
    if (Type == "datatype_null" && any_of(Call.args(), [](const Use &U) {
          return isInPlace(U.get());
        }))
      continue;
    if (listed(ActiveTypes, Type)) {
      Active = true;
      continue;
    }
    if (!listed(InactiveTypes, Type))
      return "the datatype MPI_" + upper(Type) + " of '" + Name.str() +
             "' has no derivative rule: MPI_DOUBLE and MPI_FLOAT carry "
             "derivatives, integer types none (docs/parallel.md#mpi)";
  }
  if (!Active || Row->OpArg < 0)
    return std::string();
  StringRef Op = predefinedName(Call.getArgOperand(Row->OpArg), "ompi_mpi_op_");
  if (!Op.empty() && !listed(RuleOps, Op))
    return "the reduction operator MPI_" + upper(Op) + " of '" + Name.str() +
           "' has no derivative rule: MPI_SUM, MPI_MIN and MPI_MAX have "
           "(docs/parallel.md#mpi)";
  if (!Op.empty() && Op != "sum" && listed(SumOnlyCalls, Name))
    return "the reduction operator MPI_" + upper(Op) + " of '" + Name.str() +
           "' has no derivative rule: only MPI_SUM has for this collective "
           "(docs/parallel.md#mpi)";
  return std::string();
}

bool callsMpi(const Module &M) {
  return any_of(M.functions(), [](const Function &F) {
    return F.isDeclaration() && F.getName().starts_with("MPI_");
  });
}

void emitMpiDrainAfter(CallInst &Call) {
  Module &M = *Call.getModule();
  LLVMContext &C = M.getContext();
  auto *Drain = dyn_cast<Function>(
      M.getOrInsertFunction("adcc_mpi_drain",
                            FunctionType::get(Type::getVoidTy(C), false))
          .getCallee());
  if (!Drain)
    return;
  if (Drain->isDeclaration())
    Drain->setLinkage(GlobalValue::ExternalWeakLinkage);
  Instruction *Next = Call.getNextNode();
  IRBuilder<> B(Next);
  Value *Present = B.CreateIsNotNull(Drain, "adcc.mpi.drain.linked");
  Instruction *Then = SplitBlockAndInsertIfThen(Present, Next->getIterator(),
                                                /*Unreachable=*/false);
  IRBuilder<>(Then).CreateCall(Drain);
}

} // namespace adcore

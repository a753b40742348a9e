// core/datatype/op.hpp: MPI's predefined operations (MPI-3.1 §5.9.2, §5.9.4,
// §11.3.4) on the predefined datatypes, written once for every reduction,
// every accumulate and every door. Pure: sends nothing.
//
// Which op suits which type is the table of §5.9.2, by type class:
//   MAX, MIN            C integer, Fortran integer, floating point
//   SUM, PROD           C integer, Fortran integer, floating point, complex
//   LAND, LOR, LXOR     C integer, logical
//   BAND, BOR, BXOR     C integer, Fortran integer, byte
//   MAXLOC, MINLOC      the pair types (MPI_DOUBLE_INT ...) only
//   REPLACE, NO_OP      every type, in accumulate only (MPI-2.2 Annex B.1
//                       item 23: not in reductions)
// C integer is the integer types of C but MPI_CHAR and MPI_WCHAR (text,
// with no op); Fortran integer holds MPI_INTEGER and MPI_INTEGERn, and
// MPI_AINT, MPI_OFFSET and MPI_COUNT; floating point MPI_REAL, MPI_REALn
// and MPI_DOUBLE_PRECISION; complex MPI_COMPLEX, MPI_COMPLEXn and
// MPI_DOUBLE_COMPLEX; logical MPI_C_BOOL, MPI_CXX_BOOL and MPI_LOGICAL
// (4 bytes, .TRUE. 1: a logical op's result is 0 or 1). MPI_CHARACTER, like
// MPI_CHAR, takes no op. A derived datatype takes an op when
// it is made of one basic type that does (§11.3.4's rule for accumulate;
// for reductions MPICH asks the same); one mixing basic types is
// MPI_ERR_TYPE.
//
// MAXLOC and MINLOC keep the lower index on equal values (§5.9.4: "the rank
// of the first process"). Signed integers wrap as the hardware does.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/datatype/datatype.hpp"

namespace lumpi::core {

// Sum..Bxor keep this order: the Lua and C++ doors list them the same way.
enum class Op : std::uint8_t {
  Sum, Prod, Max, Min, Land, Lor, Lxor, Band, Bor, Bxor, Replace, NoOp, Maxloc, Minloc, Count_
};
const char* op_name(Op op);  // "MPI_SUM"

// MPI_ERR_OP naming func unless op is defined on t and usable where it is
// used (REPLACE and NO_OP only in accumulate); MPI_ERR_TYPE for a derived
// type mixing basic types.
void check_reduce_op(Op op, const Datatype& t, std::string_view func);
void check_accumulate_op(Op op, Basic b, std::string_view func);

// inout = in op inout, element by element, over `count` elements of t
// in packed form (as Datatype::pack writes them: the form collectives
// carry), `in` from the lower ranks. The op was checked on t.
void apply_packed(Op op, const Datatype& t, const char* in, char* inout, std::int64_t count);
// The same on n consecutive elements of basic type b (accumulate's runs).
void apply_basic(Op op, Basic b, const char* in, char* inout, std::int64_t n);

}  // namespace lumpi::core

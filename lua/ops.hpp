// lua/ops.hpp: MPI's predefined reduction operations on Lua values.
//
// Operands are numbers, sequences of numbers (element-wise, equal lengths),
// booleans (LAND/LOR/LXOR), integers (BAND/BOR/BXOR) and {value, index}
// pairs or sequences of pairs (MAXLOC/MINLOC, ties take the smaller index).
// Results follow Lua arithmetic: integer op integer stays integer.
// This file only combines values; communication lives in core/, user ops
// (Lua functions) are called by the binding.
#pragma once

#include <lua.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/datatype/op.hpp"

namespace lumpi::lua {

// The predefined ops of reductions on Lua values, MPI_SUM ... MPI_MINLOC:
// the core's, whose names (core::op_name, "MPI_SUM") messages use. REPLACE
// and NO_OP belong to accumulate only (lua/bind_win_ops.cpp).
using OpKind = core::Op;
inline constexpr OpKind kReductionOps[] = {OpKind::Sum,  OpKind::Prod, OpKind::Max,  OpKind::Min,
                                           OpKind::Land, OpKind::Lor,  OpKind::Lxor, OpKind::Band,
                                           OpKind::Bor,  OpKind::Bxor, OpKind::Maxloc, OpKind::Minloc};

// Sets *out to the op named `name` ("SUM" or "MPI_SUM", case-sensitive) and
// returns true; returns false (leaving *out alone) for any other name.
bool op_from_name(std::string_view name, OpKind* out);

// Raises core::Error (as a C++ exception) unless the value at `idx` is a valid
// operand of `op`; the message names the operand and what is wrong with it.
// Called before any communication starts.
void check_operand(lua_State* L, int idx, OpKind op, std::string_view func);

// Pushes a ∘ b, where a and b are the values at stack indices `a` and `b`
// (a holds the contributions of lower ranks). Both must have passed
// check_operand; a shape mismatch between them (different lengths, number
// vs sequence) raises core::Error. The stack is otherwise unchanged.
void push_combined(lua_State* L, OpKind op, int a, int b, std::string_view func);

// a ∘ b computed on the encodings of two packed number sequences of one kind
// and length (see codec view_packed) for SUM, PROD, MAX, MIN, BAND, BOR and
// BXOR, giving exactly the bytes push_combined's result would encode to.
// nullopt when this fast path does not apply: the caller then decodes and
// uses push_combined, which also reports any error.
std::optional<std::string> combine_packed(OpKind op, std::string_view a, std::string_view b);

}  // namespace lumpi::lua

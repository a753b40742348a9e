// core/api/api_type_core.cpp: the core datatype (core/datatype) of each of
// this API's predefined datatypes, which the collectives over the core's
// argument rules (core/coll/layout.hpp) pack and unpack with; each is the
// basic type of the same name.
#include "core/api/api_detail.hpp"

namespace lumpi::detail {

core::TypePtr usable_type(const Datatype& t, std::string_view func, std::string_view what) {
  struct Basic {
    const Datatype* type;
    core::Basic basic;
  };
  static const Basic kBasics[] = {{&INT, core::Basic::Int},           {&LONG, core::Basic::Long},
                                  {&INT64_T, core::Basic::Int64},     {&UNSIGNED_CHAR, core::Basic::UnsignedChar},
                                  {&BYTE, core::Basic::Byte},         {&FLOAT, core::Basic::Float},
                                  {&DOUBLE, core::Basic::Double}};
  for (const Basic& b : kBasics)
    if (*b.type == t) return core::Datatype::basic(b.basic);
  fail(ERR_TYPE, func, std::string(what) + (t.Is_null() ? " is DATATYPE_NULL" : " is not a datatype"));
}

}  // namespace lumpi::detail

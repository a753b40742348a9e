// core/datatype/datatype.hpp: MPI datatypes as type maps (MPI-3.1 chapter 4): the
// predefined basic and pair types, the constructors, commit/free, the bound
// and size queries, envelope/contents, and packing `count` elements between
// a user buffer and one contiguous byte string. Pure: no Lua, sends nothing.
//
// A type is a list of pieces, each `reps` copies (at byte stride `stride`)
// of a block of `blocklen` consecutive copies of a child type placed at byte
// displacement `disp`. Every constructor reduces to that form (a subarray to
// a nest of them), so bounds, sizes and the flattened map come from one set
// of formulas. Bounds follow the type-map definitions of MPI-3.1 §4.1.6-7:
// resized types carry explicit ("sticky") lb/ub markers that win over data
// entries in every type built on them; a type without an ub marker has its
// extent rounded up to the largest alignment of its basic types (the
// epsilon of §4.1.6, for every constructor: Open MPI 4.1 agrees, e.g.
// hvector(2,1,5,DOUBLE) has extent 16; MPICH 4.0 rounds only structs).
// Blocks of length zero contribute nothing (MPI-2.1 Ballot 4 item 20); a
// block of a type with an empty map contributes its bounds lb = ub = 0 at
// its displacement, as both Open MPI and MPICH do.
//
// Commit flattens the map into merged (offset, length) byte blocks, used by
// pack/unpack, and runs of one basic type, used by element counts.
#pragma once

#include <cstddef>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lumpi::core {

// ---- basic types ----------------------------------------------------------------

enum class Basic : std::uint8_t {
  Char, SignedChar, UnsignedChar, Byte, Short, UnsignedShort, Int, Unsigned, Long,
  UnsignedLong, LongLong, UnsignedLongLong, Float, Double, LongDouble, Wchar, CBool,
  Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Packed,
  Aint, Offset, Count,  // int64_t, under MPI's own names
  CFloatComplex, CDoubleComplex, CLongDoubleComplex, CxxBool, CxxFloatComplex, CxxDoubleComplex,
  CxxLongDoubleComplex,
  // Fortran's types, usable from C (MPI-3.1 §3.2.2, §17.2.6), as gfortran
  // lays them out here: INTEGER and LOGICAL 4 bytes (.TRUE. is 1), REAL 4,
  // DOUBLE PRECISION 8, COMPLEX two REALs; the sized ones as named.
  Character, Integer, Real, DoublePrecision, Complex, DoubleComplex, Logical,
  Integer1, Integer2, Integer4, Integer8, Real4, Real8, Complex8, Complex16,
  Count_  // number of basic types
};

// The pair types of MINLOC/MAXLOC: C structs {value; int index;}.
// The pair types of MAXLOC and MINLOC (MPI-3.1 §5.9.4): C's {value; int
// index} structs, and Fortran's pairs of one type (MPI_2REAL: two REALs).
enum class Pair : std::uint8_t {
  FloatInt, DoubleInt, LongInt, TwoInt, ShortInt, LongDoubleInt, TwoReal, TwoDoublePrecision, TwoInteger, Count_
};
struct PairInfo {
  const char* name;  // "MPI_DOUBLE_INT"
  Basic value, index;
  std::int64_t index_offset;  // in the element (the C struct's layout)
};
const PairInfo& pair_info(Pair p);

struct BasicInfo {
  const char* name;  // "MPI_INT"
  std::size_t size;
  std::size_t align;
};
const BasicInfo& basic_info(Basic b);

// MPI_Type_match_size (MPI-3.1 §17.1.9): the predefined type of a class
// and size in bytes: INTEGER1/2/4/8; REAL4, REAL8, LONG_DOUBLE;
// COMPLEX8, COMPLEX16, C_LONG_DOUBLE_COMPLEX. MPI_ERR_ARG naming size
// when the class has no type of that size.
enum class TypeClass : int { Integer = 1, Real = 2, Complex = 3 };
Basic match_size(TypeClass c, int size, std::string_view func);

// True for the std::complex types with_basic hands out.
template <class T>
constexpr bool is_complex_type = false;
template <class T>
constexpr bool is_complex_type<std::complex<T>> = true;

// Calls f.template operator()<T>() with T the C type of basic type b
// (unsigned char for BYTE and PACKED, std::complex for the complex types,
// whose layout is C's _Complex); nothing for Count_.
template <class F>
void with_basic(Basic b, F&& f) {
  switch (b) {
    case Basic::Char: case Basic::Character: return f.template operator()<char>();
    case Basic::SignedChar: return f.template operator()<signed char>();
    case Basic::UnsignedChar: case Basic::Byte: case Basic::Packed: return f.template operator()<unsigned char>();
    case Basic::Short: return f.template operator()<short>();
    case Basic::UnsignedShort: return f.template operator()<unsigned short>();
    case Basic::Int: return f.template operator()<int>();
    case Basic::Unsigned: return f.template operator()<unsigned>();
    case Basic::Long: return f.template operator()<long>();
    case Basic::UnsignedLong: return f.template operator()<unsigned long>();
    case Basic::LongLong: return f.template operator()<long long>();
    case Basic::UnsignedLongLong: return f.template operator()<unsigned long long>();
    case Basic::Float: case Basic::Real: case Basic::Real4: return f.template operator()<float>();
    case Basic::Double: case Basic::DoublePrecision: case Basic::Real8: return f.template operator()<double>();
    case Basic::LongDouble: return f.template operator()<long double>();
    case Basic::Wchar: return f.template operator()<wchar_t>();
    case Basic::CBool: case Basic::CxxBool: return f.template operator()<bool>();
    case Basic::Int8: case Basic::Integer1: return f.template operator()<std::int8_t>();
    case Basic::Int16: case Basic::Integer2: return f.template operator()<std::int16_t>();
    case Basic::Int32: case Basic::Integer: case Basic::Integer4: case Basic::Logical:
      return f.template operator()<std::int32_t>();
    case Basic::Int64: case Basic::Integer8: return f.template operator()<std::int64_t>();
    case Basic::Uint8: return f.template operator()<std::uint8_t>();
    case Basic::Uint16: return f.template operator()<std::uint16_t>();
    case Basic::Uint32: return f.template operator()<std::uint32_t>();
    case Basic::Uint64: return f.template operator()<std::uint64_t>();
    case Basic::Aint: case Basic::Offset: case Basic::Count: return f.template operator()<std::int64_t>();
    case Basic::CFloatComplex: case Basic::CxxFloatComplex: case Basic::Complex: case Basic::Complex8:
      return f.template operator()<std::complex<float>>();
    case Basic::CDoubleComplex: case Basic::CxxDoubleComplex: case Basic::DoubleComplex: case Basic::Complex16:
      return f.template operator()<std::complex<double>>();
    case Basic::CLongDoubleComplex: case Basic::CxxLongDoubleComplex:
      return f.template operator()<std::complex<long double>>();
    case Basic::Count_: break;
  }
}

// ---- combiners and orders ------------------------------------------------------------

enum class Combiner : std::uint8_t {
  Named, Dup, Contiguous, Vector, Hvector, Indexed, Hindexed, IndexedBlock, HindexedBlock,
  Struct, Subarray, Resized, Darray
};
const char* combiner_name(Combiner c);  // "MPI_COMBINER_VECTOR"

// Array storage order of create_subarray. In contents it is the integer
// ORDER_C (0) or ORDER_FORTRAN (1).
enum class Order : int { C = 0, Fortran = 1 };

// How create_darray distributes one dimension over a process-grid
// dimension (MPI-3.1 §4.1.4). In contents these are the integers below;
// kDefaultDarg is MPI_DISTRIBUTE_DFLT_DARG.
enum class Distribution : int { None = 0, Block = 1, Cyclic = 2 };
inline constexpr int kDefaultDarg = -1;

// The arguments of create_darray, one entry per dimension in each vector.
struct DarrayArgs {
  int size = 0, rank = 0;
  std::vector<int> gsizes;
  std::vector<Distribution> distribs;
  std::vector<int> dargs, psizes;
  Order order = Order::C;
};

class Datatype;
using TypePtr = std::shared_ptr<Datatype>;

// What MPI_Type_get_envelope reports.
struct TypeEnvelope {
  int num_integers = 0, num_addresses = 0, num_datatypes = 0;
  Combiner combiner = Combiner::Named;
};

// The arguments of the constructor call, as MPI_Type_get_contents lists them.
struct TypeContents {
  std::vector<int> integers;
  std::vector<std::int64_t> addresses;
  std::vector<TypePtr> types;
};

// ---- the immutable type map ----------------------------------------------------------

struct Layout;
using LayoutPtr = std::shared_ptr<const Layout>;

struct Piece {
  std::int64_t disp;      // bytes
  std::int64_t blocklen;  // copies of child, at the child's extent
  std::int64_t reps;      // copies of the block ...
  std::int64_t stride;    // ... this many bytes apart
  LayoutPtr child;
};

struct Block {  // flattened, merged bytes
  std::int64_t offset, length;
};
// Blocks of one length at one distance: `count` blocks of `length` bytes
// from `offset`, `stride` bytes apart. What pack and unpack walk: a column
// of a matrix (MPI_Type_vector) is one of them, not one Block per element.
struct Strided {
  std::int64_t offset, length, count, stride;
};
struct Run {  // flattened, `count` consecutive elements of one basic type
  std::int64_t offset;
  Basic basic;
  std::int64_t count;
};

struct Layout {
  bool is_basic = false;
  Basic basic = Basic::Byte;  // is_basic only
  std::vector<Piece> pieces;
  std::int64_t size = 0;       // bytes of data
  std::int64_t nbasic = 0;     // basic elements
  std::int64_t lb = 0, ub = 0;
  std::int64_t true_lb = 0, true_ub = 0;
  std::int64_t align = 1;
  bool sticky_lb = false, sticky_ub = false;  // explicit markers (resized)

  std::int64_t extent() const { return ub - lb; }
};

// ---- datatype objects ---------------------------------------------------------------

// One MPI datatype object: an immutable type map plus the mutable state MPI
// gives the object (name, committed, freed). Constructors validate every
// argument first and throw core::Error (MPI_ERR_COUNT, MPI_ERR_ARG,
// MPI_ERR_TYPE) naming it; nothing is built on failure.
class Datatype {
 public:
  // The predefined types: one object each per process, committed, named.
  static TypePtr basic(Basic b);
  static TypePtr pair(Pair p);

  // Constructors (MPI_Type_*). `func` names the MPI function in errors.
  static TypePtr contiguous(int count, const TypePtr& old);
  static TypePtr vector(int count, int blocklength, int stride, const TypePtr& old);
  static TypePtr hvector(int count, int blocklength, std::int64_t stride, const TypePtr& old);
  static TypePtr indexed(const std::vector<int>& blocklengths, const std::vector<int>& displacements,
                         const TypePtr& old);
  static TypePtr hindexed(const std::vector<int>& blocklengths,
                          const std::vector<std::int64_t>& displacements, const TypePtr& old);
  static TypePtr indexed_block(int blocklength, const std::vector<int>& displacements,
                               const TypePtr& old);
  static TypePtr hindexed_block(int blocklength, const std::vector<std::int64_t>& displacements,
                                const TypePtr& old);
  static TypePtr create_struct(const std::vector<int>& blocklengths,
                               const std::vector<std::int64_t>& displacements,
                               const std::vector<TypePtr>& types);
  static TypePtr subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                          const std::vector<int>& starts, Order order, const TypePtr& old);
  static TypePtr darray(const DarrayArgs& a, const TypePtr& old);
  static TypePtr resized(const TypePtr& old, std::int64_t lb, std::int64_t extent);
  static TypePtr dup(const TypePtr& old);

  // MPI_Type_commit: flattens the map once. Committing twice is allowed.
  void commit();
  // MPI_Type_free: the object becomes freed. MPI_ERR_TYPE for a predefined
  // or already freed type. Types built on it, copies of its map, and
  // operations in flight that use it live on.
  void free(std::string_view func = "MPI_Type_free");

  bool predefined() const { return predefined_; }
  // Which pair type this is, for the predefined pair objects only.
  std::optional<Pair> pair_of() const { return pair_; }
  bool committed() const { return committed_; }
  bool freed() const { return freed_; }
  // A number never reused in the process (attribute caches key on it).
  std::uint64_t serial() const { return serial_; }

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }

  std::int64_t size() const { return layout_->size; }
  std::int64_t lb() const { return layout_->lb; }
  std::int64_t extent() const { return layout_->extent(); }
  std::int64_t true_lb() const { return layout_->true_lb; }
  std::int64_t true_extent() const { return layout_->true_ub - layout_->true_lb; }
  const Layout& layout() const { return *layout_; }

  TypeEnvelope envelope() const;
  // MPI_ERR_TYPE for a predefined type (combiner NAMED). Derived types in
  // the result are new objects sharing the old map (committed as the
  // original is); predefined ones are the predefined objects themselves.
  TypeContents contents() const;

  // The flattened map (committed types only; empty before commit).
  const std::vector<Block>& blocks() const { return blocks_; }
  const std::vector<Run>& runs() const { return runs_; }
  // The runs of one element, committed or not (flattened now if not):
  // what :draw shows. MPI_ERR_NO_MEM as commit for a map too large.
  std::vector<Run> typemap() const;

  // ---- typed data (MPI_ERR_TYPE unless committed; MPI_ERR_COUNT for count < 0) ----
  // A freed type still packs and unpacks: the call that starts an operation
  // checks check_usable, and an operation in flight completes normally when
  // the type is freed meanwhile (MPI-3.1 §4.1.9).

  // Bytes [lo, hi) relative to the buffer's address that `count` elements
  // touch (lo = hi = 0 when they touch nothing).
  void span(std::int64_t count, std::int64_t* lo, std::int64_t* hi) const;
  // Appends the data of `count` elements at buf to out (count * size() bytes).
  void pack(const void* buf, std::int64_t count, std::string& out, std::string_view func) const;
  // The same into dst, which has room for count * size() bytes.
  void pack(const void* buf, std::int64_t count, char* dst, std::string_view func) const;
  // Scatters n bytes of packed data into `count` elements at buf; n may stop
  // short (a shorter message), never beyond count * size() (MPI_ERR_TRUNCATE).
  void unpack(const char* data, std::size_t n, void* buf, std::int64_t count,
              std::string_view func) const;
  // MPI_Get_count / MPI_Get_elements for a message of `bytes` bytes:
  // UNDEFINED when they are not whole elements (basic elements for
  // elements()).
  std::int64_t count_of(std::int64_t bytes) const;
  std::int64_t elements_of(std::int64_t bytes) const;
  // The reverse of elements_of (MPI_Status_set_elements): the bytes of
  // `count` (not negative) basic elements in type-map order, whole
  // elements and then the first basic elements of one more.
  std::int64_t bytes_of_elements(std::int64_t count) const;

  // Raises MPI_ERR_TYPE in `func` unless the type may be used for
  // communication or packing: not freed, committed.
  void check_usable(std::string_view func, std::string_view what = "datatype") const;
  // MPI_ERR_TYPE unless committed (freed or not).
  void check_committed(std::string_view func, std::string_view what = "datatype") const;

  Datatype(LayoutPtr layout, Combiner combiner, TypeContents contents);

 private:
  LayoutPtr layout_;
  Combiner combiner_;
  TypeContents contents_;
  std::string name_;
  bool predefined_ = false;
  std::optional<Pair> pair_;
  bool committed_ = false;
  bool freed_ = false;
  std::vector<Block> blocks_;
  std::vector<Strided> strided_;  // blocks_, runs of equal length and distance folded
  std::vector<Run> runs_;
  static inline std::uint64_t serial_counter_ = 0;
  std::uint64_t serial_ = ++serial_counter_;
};

}  // namespace lumpi::core

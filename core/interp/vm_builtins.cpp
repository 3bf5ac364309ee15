// The Relax VM's runtime builtins that VMShapeLower emits (TVM's
// runtime/vm/builtin.cc): the shape heap, the checks of a function's
// arguments and results against their types, and symbolic shape matching and
// construction through the heap.
//
// Values: a shape is a 1-d int64 tensor, a prim value a 0-d tensor, and the
// VM's strings (R.str, R.dtype) are 1-d uint8 tensors of their text, so the
// builtins read an error context or a dtype from them; the heap is an int64
// tensor the builtins and the shape functions write in place.
#include <string>

#include "core/interp/kernel_util.h"
#include "core/interp/kernels.h"
#include "core/interp/vm_builtins.h"

namespace passlab::kernels {

namespace {

// TVM's runtime::vm::MatchShapeCode and MakeShapeCode.
enum class MatchCode : int64_t { AssertEqualToImm = 0, StoreToHeap = 1, NoOp = 2, AssertEqualToLoad = 3 };
enum class MakeCode : int64_t { UseImm = 0, LoadShape = 1 };

int64_t intArg(const KernelCall& call, size_t i) {
  const NDArray& t = call.tensor(i);
  if (t.ndim() != 0 || !t.dtype().isInt()) call.fail("argument " + std::to_string(i) + " must be an integer prim value");
  return t.getAsInt(0);
}

/// The text of an R.str / R.dtype argument.
std::string textArg(const KernelCall& call, size_t i) {
  const NDArray& t = call.tensor(i);
  if (t.ndim() != 1 || t.dtype() != DataType(DTypeCode::UInt8)) call.fail("argument " + std::to_string(i) + " must be a string");
  return std::string(reinterpret_cast<const char*>(t.rawData()), static_cast<size_t>(t.numElements()));
}

/// Fails naming the builtin, with TVM's error context (the last argument)
/// before the message.
[[noreturn]] void failIn(const KernelCall& call, const std::string& message) {
  std::string ctx = textArg(call, call.numArgs() - 1);
  call.fail(call.attrString("func_name") + ": " + (ctx.empty() ? "" : ctx + ": ") + message);
}

NDArray heapArg(const KernelCall& call, size_t i) {
  const Value& v = call.arg(i);
  if (!v.isTensor()) return NDArray();  // R.null_value(): no symbolic shape in the function
  const NDArray& heap = v.tensor();
  if (heap.ndim() != 1 || heap.dtype() != DataType(DTypeCode::Int64)) call.fail("the shape heap must be a 1-d int64 tensor");
  return heap;
}

int64_t heapSlot(const KernelCall& call, const NDArray& heap, int64_t index) {
  if (!heap.defined() || index < 0 || index >= heap.numElements())
    call.fail("shape heap slot " + std::to_string(index) + " is out of range");
  return index;
}

std::vector<int64_t> shapeElements(const NDArray& s) {
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < s.numElements(); ++i) dims.push_back(s.getAsInt(i));
  return dims;
}

bool isShapeValue(const NDArray& t) { return t.ndim() == 1 && t.dtype() == DataType(DTypeCode::Int64); }

/// match_shape / match_prim_value: `dims` against the (code, value) pairs from
/// argument `first` on; the error context is the last argument.
void matchDims(const KernelCall& call, const std::vector<int64_t>& dims, NDArray heap, size_t first) {
  for (size_t i = 0; i < dims.size(); ++i) {
    auto code = static_cast<MatchCode>(intArg(call, first + 2 * i));
    int64_t r = intArg(call, first + 2 * i + 1);
    std::string where = dims.size() == 1 && call.attrString("func_name").ends_with("prim_value") ? "the value"
                                                                                                   : "dimension " + std::to_string(i);
    switch (code) {
      case MatchCode::AssertEqualToImm:
        if (dims[i] != r) failIn(call, where + " is " + std::to_string(dims[i]) + ", expected " + std::to_string(r));
        break;
      case MatchCode::StoreToHeap: heap.setFromDouble(heapSlot(call, heap, r), static_cast<double>(dims[i])); break;
      case MatchCode::NoOp: break;
      case MatchCode::AssertEqualToLoad: {
        int64_t expected = heap.getAsInt(heapSlot(call, heap, r));
        if (dims[i] != expected)
          failIn(call, where + " is " + std::to_string(dims[i]) + ", expected " + std::to_string(expected) + " (shape heap slot " +
                           std::to_string(r) + ")");
        break;
      }
      default: call.fail("unknown match code " + std::to_string(static_cast<int64_t>(code)));
    }
  }
}

int64_t makeDim(const KernelCall& call, const NDArray& heap, size_t at) {
  auto code = static_cast<MakeCode>(intArg(call, at));
  int64_t r = intArg(call, at + 1);
  if (code == MakeCode::UseImm) return r;
  if (code == MakeCode::LoadShape) return heap.getAsInt(heapSlot(call, heap, r));
  call.fail("unknown make-shape code " + std::to_string(static_cast<int64_t>(code)));
}

}  // namespace

NDArray vmStringValue(const std::string& text) {
  NDArray out(DTypeCode::UInt8, {static_cast<int64_t>(text.size())});
  std::copy(text.begin(), text.end(), reinterpret_cast<char*>(out.mutableData()));
  return out;
}

std::optional<Value> runVmBuiltin(const KernelCall& call, const std::string& name) {
  if (name == "vm.builtin.alloc_shape_heap") {
    int64_t size = intArg(call, 0);
    if (size < 0 || size > (int64_t(1) << 20)) call.fail("shape heap size " + std::to_string(size) + " is out of range");
    NDArray heap(DTypeCode::Int64, {size});
    for (int64_t i = 0; i < size; ++i) heap.setFromDouble(i, 0);
    return Value(heap);
  }
  if (name == "vm.builtin.check_tensor_info") {
    // (value, ndim, dtype, err_ctx); ndim -1 and dtype "" (void) check nothing.
    const Value& v = call.arg(0);
    if (!v.isTensor()) failIn(call, "expected a tensor, got " + v.describe());
    int64_t ndim = intArg(call, 1);
    const NDArray& t = v.tensor();
    if (ndim != -1 && static_cast<int64_t>(t.ndim()) != ndim)
      failIn(call, "expected a tensor of rank " + std::to_string(ndim) + ", got " + v.describe());
    std::string dtype = call.arg(2).isTensor() ? textArg(call, 2) : "";
    if (!dtype.empty() && dtype != "void" && dtype != t.dtype().name())
      failIn(call, "expected a tensor of dtype " + dtype + ", got " + v.describe());
    return Value();
  }
  if (name == "vm.builtin.check_shape_info") {
    const Value& v = call.arg(0);
    if (!v.isTensor() || !isShapeValue(v.tensor())) failIn(call, "expected a shape, got " + v.describe());
    int64_t ndim = intArg(call, 1);
    if (ndim != -1 && v.tensor().numElements() != ndim)
      failIn(call, "expected a shape of " + std::to_string(ndim) + " dimensions, got " + shapeString(shapeElements(v.tensor())));
    return Value();
  }
  if (name == "vm.builtin.check_prim_value_info") {
    const Value& v = call.arg(0);
    if (!v.isTensor() || v.tensor().ndim() != 0) failIn(call, "expected a prim value, got " + v.describe());
    std::string dtype = textArg(call, 1);
    if (!dtype.empty() && dtype != v.tensor().dtype().name())
      failIn(call, "expected a prim value of dtype " + dtype + ", got " + v.describe());
    return Value();
  }
  if (name == "vm.builtin.check_tuple_info") {
    const Value& v = call.arg(0);
    int64_t size = intArg(call, 1);
    if (!v.isTuple() || static_cast<int64_t>(v.fields().size()) != size)
      failIn(call, "expected a tuple of " + std::to_string(size) + " fields, got " + v.describe());
    return Value();
  }
  if (name == "vm.builtin.check_func_info") {
    if (!call.arg(0).isClosure()) failIn(call, "expected a function, got " + call.arg(0).describe());
    return Value();
  }
  if (name == "vm.builtin.match_shape") {
    // (value, heap, ndim, code0, r0, ..., err_ctx): a tensor's shape or a shape value's elements.
    // A shape value arrives as the tuple of its elements (the interpreter's
    // shapes are 1-d int64 tensors, which a tensor of rank 1 also is).
    const Value& v = call.arg(0);
    std::vector<int64_t> dims;
    if (v.isTensor()) {
      dims = v.tensor().shape();
    } else if (v.isTuple()) {
      for (const Value& d : v.fields()) {
        if (!d.isTensor() || d.tensor().ndim() != 0) call.fail("match_shape: a shape's elements must be integers");
        dims.push_back(d.tensor().getAsInt(0));
      }
    } else {
      failIn(call, "match_shape expects a tensor or a shape, got " + v.describe());
    }
    NDArray heap = heapArg(call, 1);
    int64_t ndim = intArg(call, 2);
    if (ndim < 0 || call.numArgs() != static_cast<size_t>(4 + 2 * ndim)) call.fail("match_shape: wrong number of arguments");
    if (static_cast<int64_t>(dims.size()) != ndim)
      failIn(call, "expected " + std::to_string(ndim) + " dimensions, got " + shapeString(dims));
    matchDims(call, dims, heap, 3);
    return Value();
  }
  if (name == "vm.builtin.match_prim_value") {
    const Value& v = call.arg(0);
    if (!v.isTensor() || v.tensor().ndim() != 0) failIn(call, "expected a prim value, got " + v.describe());
    if (call.numArgs() != 5) call.fail("match_prim_value: wrong number of arguments");
    matchDims(call, {v.tensor().getAsInt(0)}, heapArg(call, 1), 2);
    return Value();
  }
  if (name == "vm.builtin.make_shape") {
    // (heap, n, code0, r0, ...)
    NDArray heap = heapArg(call, 0);
    int64_t n = intArg(call, 1);
    if (n < 0 || call.numArgs() != static_cast<size_t>(2 + 2 * n)) call.fail("make_shape: wrong number of arguments");
    NDArray out(DTypeCode::Int64, {n});
    for (int64_t i = 0; i < n; ++i) out.setFromDouble(i, static_cast<double>(makeDim(call, heap, 2 + 2 * static_cast<size_t>(i))));
    return Value(out);
  }
  if (name == "vm.builtin.make_prim_value") {
    if (call.numArgs() != 3) call.fail("make_prim_value: wrong number of arguments");
    return Value(NDArray::scalar(DTypeCode::Int64, static_cast<double>(makeDim(call, heapArg(call, 0), 1))));
  }
  if (name == "vm.builtin.tuple_getitem") {
    const Value& v = call.arg(0);
    int64_t i = intArg(call, 1);
    if (!v.isTuple() || i < 0 || i >= static_cast<int64_t>(v.fields().size()))
      call.fail("tuple_getitem: no field " + std::to_string(i) + " in " + v.describe());
    return v.fields()[static_cast<size_t>(i)];
  }
  return std::nullopt;
}

}  // namespace passlab::kernels

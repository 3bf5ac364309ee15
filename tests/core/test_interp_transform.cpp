// Interpreter tests of the data-movement kernels, reductions, constructors and
// image.resize2d, against hand-computed values and layout round trips.
#include <catch2/catch.hpp>

#include "tests/interp_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// 0, 1, 2, ... in `shape` (float32).
NDArray iota(std::vector<int64_t> shape, DataType dtype = DTypeCode::Float32) {
  NDArray a(dtype, std::move(shape));
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, static_cast<double>(i));
  return a;
}

std::vector<double> range(int64_t n) {
  std::vector<double> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(static_cast<double>(i));
  return out;
}

AttrValue str(const char* s) { return AttrValue::string(s); }

}  // namespace

TEST_CASE("Interp: reshape with TVM's special values", "[interp]") {
  struct Case {
    std::vector<int64_t> in, spec, out;
  };
  auto c = GENERATE(values<Case>({
      {{2, 3, 4}, {6, 4}, {6, 4}},
      {{2, 3, 4}, {0, -1}, {2, 12}},
      {{2, 3, 4}, {-1, 0, 0}, {2, 3, 4}},
      {{2, 3, 4}, {2, -2}, {2, 3, 4}},
      {{2, 3, 4}, {-2}, {2, 3, 4}},
      {{2, 3, 4}, {-3, 4}, {6, 4}},
      {{2, 3, 4}, {-4, 1, 2, -2}, {1, 2, 3, 4}},
      {{2, 3, 4}, {2, -4, -1, 3, 4}, {2, 1, 3, 4}},
      {{24}, {2, -1, 3}, {2, 4, 3}},
  }));
  NDArray out = runOp(OpId::Reshape, {iota(c.in)}, {{"newshape", ints(c.spec)}});
  requireValues(out, DTypeCode::Float32, c.out, range(24));
  CHECK_THROWS_AS(runOp(OpId::Reshape, {iota({2, 3})}, {{"newshape", ints({4, 2})}}), DiagnosticError);
}

TEST_CASE("Interp: transpose, squeeze and expand_dims", "[interp]") {
  NDArray x = iota({2, 3});
  requireValues(runOp(OpId::Transpose, {x}), DTypeCode::Float32, {3, 2}, {0, 3, 1, 4, 2, 5});
  NDArray y = iota({2, 1, 3});
  requireValues(runOp(OpId::Transpose, {y}, {{"axes", ints({1, -1, 0})}}), DTypeCode::Float32, {1, 3, 2}, {0, 3, 1, 4, 2, 5});
  requireValues(runOp(OpId::Squeeze, {iota({1, 2, 1, 3})}), DTypeCode::Float32, {2, 3}, range(6));
  requireValues(runOp(OpId::Squeeze, {iota({1, 2, 1, 3})}, {{"axis", ints({2})}}), DTypeCode::Float32, {1, 2, 3}, range(6));
  CHECK_THROWS_AS(runOp(OpId::Squeeze, {iota({1, 2})}, {{"axis", ints({1})}}), DiagnosticError);
  requireValues(runOp(OpId::ExpandDims, {iota({2, 3})}, {{"axis", AttrValue::integer(-1)}, {"num_newaxis", AttrValue::integer(2)}}),
                DTypeCode::Float32, {2, 3, 1, 1}, range(6));
  requireValues(runOp(OpId::ExpandDims, {iota({2, 3})}, {{"axis", AttrValue::integer(1)}}), DTypeCode::Float32, {2, 1, 3}, range(6));
}

TEST_CASE("Interp: concatenate and split invert each other", "[interp]") {
  NDArray a = iota({2, 2});
  NDArray b = f32({2, 1}, {10, 11});
  Value joined = evaluateExpr(makeOpCall(OpId::Concatenate, {makeTuple({makeConstant(a), makeConstant(b)})}, {{"axis", AttrValue::integer(-1)}}));
  requireValues(joined.tensor(), DTypeCode::Float32, {2, 3}, {0, 1, 10, 2, 3, 11});
  Value parts = runOpValue(OpId::Split, {joined.tensor()}, {{"indices_or_sections", ints({2})}, {"axis", AttrValue::integer(1)}});
  REQUIRE(parts.fields().size() == 2);
  CHECK(parts.fields()[0].tensor().bitwiseEqual(a));
  CHECK(parts.fields()[1].tensor().bitwiseEqual(b));
  Value thirds = runOpValue(OpId::Split, {iota({6, 2})}, {{"indices_or_sections", AttrValue::integer(3)}});
  REQUIRE(thirds.fields().size() == 3);
  requireValues(thirds.fields()[2].tensor(), DTypeCode::Float32, {2, 2}, {8, 9, 10, 11});
  Value uneven = runOpValue(OpId::Split, {iota({5})}, {{"indices_or_sections", ints({1, 1, 4})}});
  REQUIRE(uneven.fields().size() == 4);
  CHECK(uneven.fields()[1].tensor().shape() == std::vector<int64_t>{0});
  requireValues(uneven.fields()[2].tensor(), DTypeCode::Float32, {3}, {1, 2, 3});
}

TEST_CASE("Interp: strided_slice follows NumPy semantics", "[interp]") {
  struct Case {
    AttrDict attrs;
    std::vector<int64_t> shape;
    std::vector<double> expected;
  };
  // Input: iota(3, 4) = [[0 1 2 3] [4 5 6 7] [8 9 10 11]].
  auto c = GENERATE(values<Case>({
      {{{"begin", ints({1, 1})}, {"end", ints({3, 3})}}, {2, 2}, {5, 6, 9, 10}},
      {{{"begin", ints({0, 0})}, {"end", ints({3, 4})}, {"strides", ints({2, 3})}}, {2, 2}, {0, 3, 8, 11}},
      {{{"begin", ints({-1})}, {"end", ints({-4})}, {"strides", ints({-1})}}, {3, 4}, {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}},
      {{{"begin", ints({0, 3})}, {"end", ints({3, 0})}, {"strides", ints({1, -2})}}, {3, 2}, {3, 1, 7, 5, 11, 9}},
      {{{"begin", ints({1})}, {"end", ints({100})}, {"axes", ints({1})}}, {3, 3}, {1, 2, 3, 5, 6, 7, 9, 10, 11}},
      {{{"begin", ints({1, 1})}, {"end", ints({1, -1})}, {"slice_mode", str("size")}}, {1, 3}, {5, 6, 7}},
      {{{"begin", ints({2})}, {"end", ints({1})}}, {0, 4}, {}},
  }));
  NDArray out = runOp(OpId::StridedSlice, {iota({3, 4})}, c.attrs);
  requireValues(out, DTypeCode::Float32, c.shape, c.expected);
}

TEST_CASE("Interp: take with axis, batch_dims and index modes", "[interp]") {
  NDArray data = iota({2, 3});
  NDArray idx = makeArray(DTypeCode::Int32, {2}, {2, 0});
  requireValues(runOp(OpId::Take, {data, idx}, {{"axis", AttrValue::integer(1)}}), DTypeCode::Float32, {2, 2}, {2, 0, 5, 3});
  requireValues(runOp(OpId::Take, {data, makeArray(DTypeCode::Int64, {2, 1}, {1, 0})}, {{"axis", AttrValue::integer(0)}}),
                DTypeCode::Float32, {2, 1, 3}, {3, 4, 5, 0, 1, 2});
  // No axis: indices address the flattened data.
  requireValues(runOp(OpId::Take, {data, makeArray(DTypeCode::Int32, {3}, {5, 1, 4})}), DTypeCode::Float32, {3}, {5, 1, 4});
  NDArray far = makeArray(DTypeCode::Int32, {3}, {-1, 3, 7});
  requireValues(runOp(OpId::Take, {data, far}, {{"axis", AttrValue::integer(1)}}), DTypeCode::Float32, {2, 3}, {0, 2, 2, 3, 5, 5});
  requireValues(runOp(OpId::Take, {data, far}, {{"axis", AttrValue::integer(1)}, {"mode", str("wrap")}}), DTypeCode::Float32, {2, 3},
                {2, 0, 1, 5, 3, 4});
  CHECK_THROWS_AS(runOp(OpId::Take, {data, far}, {{"axis", AttrValue::integer(1)}, {"mode", str("fast")}}), DiagnosticError);
  // batch_dims=1: row b takes its own indices.
  NDArray perRow = makeArray(DTypeCode::Int32, {2, 2}, {0, 2, 1, 1});
  requireValues(runOp(OpId::Take, {data, perRow}, {{"axis", AttrValue::integer(1)}, {"batch_dims", AttrValue::integer(1)}}),
                DTypeCode::Float32, {2, 2}, {0, 2, 4, 4});
}

TEST_CASE("Interp: layout_transform round trips", "[interp]") {
  NDArray x = randomArray(DTypeCode::Float32, {2, 8, 3, 5}, 30);
  auto lt = [](const NDArray& a, const char* src, const char* dst) {
    return runOp(OpId::LayoutTransform, {a}, {{"src_layout", str(src)}, {"dst_layout", str(dst)}});
  };
  NDArray nhwc = lt(x, "NCHW", "NHWC");
  REQUIRE(nhwc.shape() == std::vector<int64_t>{2, 3, 5, 8});
  CHECK(nhwc.bitwiseEqual(runOp(OpId::Transpose, {x}, {{"axes", ints({0, 2, 3, 1})}})));
  CHECK(lt(nhwc, "NHWC", "NCHW").bitwiseEqual(x));
  // Kernel layouts: OIHW -> HWIO -> OHWI -> OIHW is the identity.
  NDArray hwio = lt(x, "OIHW", "HWIO");
  REQUIRE(hwio.shape() == std::vector<int64_t>{3, 5, 8, 2});
  CHECK(hwio.getAsDouble(((1 * 5 + 4) * 8 + 6) * 2 + 1) == x.getAsDouble(((1 * 8 + 6) * 3 + 1) * 5 + 4));
  CHECK(lt(lt(hwio, "HWIO", "OHWI"), "OHWI", "OIHW").bitwiseEqual(x));
  // Blocked layout: NCHW4c holds channel 4 * c_outer + c_inner in [n, c_outer, h, w, c_inner].
  NDArray blocked = lt(x, "NCHW", "NCHW4c");
  REQUIRE(blocked.shape() == std::vector<int64_t>{2, 2, 3, 5, 4});
  CHECK(blocked.getAsDouble((((1 * 2 + 1) * 3 + 2) * 5 + 3) * 4 + 2) == x.getAsDouble(((1 * 8 + 6) * 3 + 2) * 5 + 3));
  CHECK(lt(blocked, "NCHW4c", "NCHW").bitwiseEqual(x));
  CHECK(lt(lt(blocked, "NCHW4c", "NHWC"), "NHWC", "NCHW").bitwiseEqual(x));
}

TEST_CASE("Interp: reductions with axis, keepdims and exclude", "[interp]") {
  NDArray x = iota({2, 3, 2});
  requireValues(runOp(OpId::Sum, {x}), DTypeCode::Float32, {}, {66});
  requireValues(runOp(OpId::Sum, {x}, {{"axis", ints({1})}}), DTypeCode::Float32, {2, 2}, {6, 9, 24, 27});
  requireValues(runOp(OpId::Sum, {x}, {{"axis", ints({1})}, {"keepdims", AttrValue::boolean(true)}}), DTypeCode::Float32, {2, 1, 2},
                {6, 9, 24, 27});
  requireValues(runOp(OpId::Sum, {x}, {{"axis", ints({1})}, {"exclude", AttrValue::boolean(true)}}), DTypeCode::Float32, {3},
                {1 + 6 + 7, 2 + 3 + 8 + 9, 4 + 5 + 10 + 11});
  requireValues(runOp(OpId::Mean, {x}, {{"axis", ints({0, -1})}}), DTypeCode::Float32, {3}, {3.5, 5.5, 7.5});
  requireValues(runOp(OpId::Max, {x}, {{"axis", ints({2})}}), DTypeCode::Float32, {2, 3}, {1, 3, 5, 7, 9, 11});
  requireValues(runOp(OpId::Min, {x}, {{"axis", ints({0, 1})}}), DTypeCode::Float32, {2}, {0, 1});
  requireValues(runOp(OpId::Prod, {x}, {{"axis", ints({1})}}), DTypeCode::Float32, {2, 2}, {0 * 2 * 4, 1 * 3 * 5, 6 * 8 * 10, 7 * 9 * 11});
  // An empty reduction is the empty product, 1; int8 products wrap like the dtype.
  requireValues(runOp(OpId::Prod, {makeArray(DTypeCode::Float32, {2, 0}, {})}, {{"axis", ints({1})}}), DTypeCode::Float32, {2}, {1, 1});
  requireValues(runOp(OpId::Prod, {makeArray(DTypeCode::Int8, {2}, {16, 20})}), DTypeCode::Int8, {}, {64});
}

TEST_CASE("Interp: argmax and argmin positions, ties, NaN and several axes", "[interp]") {
  NDArray x = makeArray(DTypeCode::Float32, {2, 4}, {1, 5, 5, 0, 3, -1, 3, -1});
  requireValues(runOp(OpId::ArgMax, {x}, {{"axis", ints({1})}}), DTypeCode::Int32, {2}, {1, 0});
  requireValues(runOp(OpId::ArgMax, {x}, {{"axis", ints({1})}, {"select_last_index", AttrValue::boolean(true)}}), DTypeCode::Int32, {2},
                {2, 2});
  requireValues(runOp(OpId::ArgMin, {x}, {{"axis", ints({1})}, {"keepdims", AttrValue::boolean(true)}}), DTypeCode::Int32, {2, 1},
                {3, 1});
  requireValues(runOp(OpId::ArgMin, {x}, {{"axis", ints({1})}, {"select_last_index", AttrValue::boolean(true)}}), DTypeCode::Int32,
                {2}, {3, 3});
  requireValues(runOp(OpId::ArgMax, {x}, {{"axis", ints({0})}}), DTypeCode::Int32, {4}, {1, 0, 0, 0});
  // No axis: the position in the flattened tensor; several axes: row-major over them.
  requireValues(runOp(OpId::ArgMin, {x}), DTypeCode::Int32, {}, {5});
  requireValues(runOp(OpId::ArgMax, {iota({2, 3, 2})}, {{"axis", ints({0, 2})}}), DTypeCode::Int32, {3}, {3, 3, 3});
  // The first NaN is the maximum and the minimum (NumPy).
  NDArray n = makeArray(DTypeCode::Float32, {4}, {1, std::nan(""), 7, std::nan("")});
  requireValues(runOp(OpId::ArgMax, {n}, {{"axis", ints({0})}}), DTypeCode::Int32, {}, {1});
  requireValues(runOp(OpId::ArgMin, {n}, {{"axis", ints({0})}}), DTypeCode::Int32, {}, {1});
  // Integer mean truncates; int8 sums wrap like the dtype.
  requireValues(runOp(OpId::Mean, {makeArray(DTypeCode::Int32, {3}, {1, 2, 4})}), DTypeCode::Int32, {}, {2});
  requireValues(runOp(OpId::Sum, {makeArray(DTypeCode::Int8, {2}, {100, 100})}), DTypeCode::Int8, {}, {-56});
}

TEST_CASE("Interp: float16 sums accumulate in float32 and round once", "[interp]") {
  // 2048 + 1 + 1 + ... : rounding after every addition would stay at 2048
  // (1 is half an ulp there and ties go to even); one rounding at the end keeps them.
  std::vector<double> values{2048};
  for (int i = 0; i < 16; ++i) values.push_back(1);
  NDArray x = makeArray(DTypeCode::Float16, {17}, values);
  requireValues(runOp(OpId::Sum, {x}), DTypeCode::Float16, {}, {2064});
  requireValues(runOp(OpId::Mean, {makeArray(DTypeCode::Float16, {3}, {1, 1, 2})}), DTypeCode::Float16, {},
                {Half::toFloatBits(Half::fromDouble(4.0f / 3.0f))});
}

TEST_CASE("Interp: zeros, ones, full and shape_of", "[interp]") {
  requireValues(runOp(OpId::Zeros, {}, {{"shape", ints({2, 2})}, {"dtype", str("int8")}}), DTypeCode::Int8, {2, 2}, {0, 0, 0, 0});
  requireValues(runOp(OpId::Ones, {}, {{"shape", ints({3})}, {"dtype", str("float16")}}), DTypeCode::Float16, {3}, {1, 1, 1});
  requireValues(runOp(OpId::Full, {f32({}, {2.5})}, {{"shape", ints({2})}}), DTypeCode::Float32, {2}, {2.5, 2.5});
  requireValues(runOp(OpId::Full, {f32({}, {2.5})}, {{"shape", ints({2})}, {"dtype", str("int32")}}), DTypeCode::Int32, {2}, {2, 2});
  requireValues(runOp(OpId::ShapeOf, {iota({4, 1, 7})}), DTypeCode::Int64, {3}, {4, 1, 7});
  requireValues(runOp(OpId::ShapeOf, {iota({5})}, {{"dtype", str("int32")}}), DTypeCode::Int32, {1}, {5});
}

TEST_CASE("Interp: resize2d nearest neighbour with TVM's coordinate modes", "[interp]") {
  NDArray x = iota({1, 1, 1, 4});  // one row: 0 1 2 3
  auto resize = [&](int64_t width, const char* mode, const char* rounding) {
    return runOp(OpId::Resize2D, {x},
                 {{"size", ints({1, width})}, {"method", str("nearest_neighbor")}, {"coordinate_transformation_mode", str(mode)},
                  {"rounding_method", str(rounding)}});
  };
  // asymmetric, 4 -> 8: x_in = x / 2; floor -> 0 0 1 1 2 2 3 3.
  requireValues(resize(8, "asymmetric", "floor"), DTypeCode::Float32, {1, 1, 1, 8}, {0, 0, 1, 1, 2, 2, 3, 3});
  // half_pixel, 4 -> 8: x_in = (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, ...; round (ties to even).
  requireValues(resize(8, "half_pixel", "round"), DTypeCode::Float32, {1, 1, 1, 8}, {0, 0, 1, 1, 2, 2, 3, 3});
  // align_corners, 4 -> 3: x_in = 1.5 * x = 0, 1.5, 3; round_prefer_ceil -> 0, 2, 3.
  requireValues(resize(3, "align_corners", "round_prefer_ceil"), DTypeCode::Float32, {1, 1, 1, 3}, {0, 2, 3});
  requireValues(resize(3, "align_corners", "round_prefer_floor"), DTypeCode::Float32, {1, 1, 1, 3}, {0, 1, 3});
  // asymmetric 4 -> 2 downsampling picks every other pixel.
  requireValues(resize(2, "asymmetric", "floor"), DTypeCode::Float32, {1, 1, 1, 2}, {0, 2});
}

TEST_CASE("Interp: resize2d linear and cubic", "[interp]") {
  NDArray x = f32({1, 1, 2, 2}, {0, 1, 2, 3});
  auto resize = [&](const char* method, const char* mode, int64_t size, const char* layout = "NCHW") {
    return runOp(OpId::Resize2D, {x},
                 {{"size", ints({size, size})}, {"method", str(method)}, {"coordinate_transformation_mode", str(mode)},
                  {"layout", str(layout)}});
  };
  // align_corners 2 -> 3: the midpoints interpolate; value = row * 2 + col.
  requireValues(resize("linear", "align_corners", 3), DTypeCode::Float32, {1, 1, 3, 3}, {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
  // half_pixel 2 -> 4: coordinates -0.25, 0.25, 0.75, 1.25 clamp at the border.
  requireValues(resize("linear", "half_pixel", 4), DTypeCode::Float32, {1, 1, 4, 4},
                {0, 0.25, 0.75, 1, 0.5, 0.75, 1.25, 1.5, 1.5, 1.75, 2.25, 2.5, 2, 2.25, 2.75, 3}, 1e-6);
  // Cubic weights sum to one: a constant image stays constant.
  NDArray flat = f32({1, 1, 3, 3}, std::vector<double>(9, 7.0));
  NDArray cubic = runOp(OpId::Resize2D, {flat}, {{"size", ints({5, 4})}, {"method", str("cubic")}});
  requireValues(cubic, DTypeCode::Float32, {1, 1, 5, 4}, std::vector<double>(20, 7.0), 1e-6);
  // Cubic at an exact source sample reproduces it (align_corners, same size).
  NDArray same = runOp(OpId::Resize2D, {x}, {{"size", ints({2, 2})}, {"method", str("cubic")}, {"coordinate_transformation_mode", str("align_corners")}});
  requireValues(same, DTypeCode::Float32, {1, 1, 2, 2}, {0, 1, 2, 3}, 1e-6);
  // NHWC agrees with NCHW.
  NDArray y = randomArray(DTypeCode::Float32, {1, 3, 5, 4}, 31);
  AttrDict attrs{{"size", ints({7, 3})}, {"method", str("linear")}};
  NDArray nchw = runOp(OpId::Resize2D, {y}, attrs);
  attrs.set("layout", str("NHWC"));
  NDArray nhwc = runOp(OpId::Resize2D, {runOp(OpId::Transpose, {y}, {{"axes", ints({0, 2, 3, 1})}})}, attrs);
  CHECK(nhwc.bitwiseEqual(runOp(OpId::Transpose, {nchw}, {{"axes", ints({0, 2, 3, 1})}})));
}

// Virtual devices: where a value lives and where a function runs, as TVM's
// device planning (PlanDevices) expresses one module spread over several
// devices. TVM prints them as references into its metadata section,
// `virtual_device=meta[VirtualDevice][1]`; passlab keeps that text form and
// holds what each index stands for in the module attribute `virtual_devices`
// (a list of dictionaries), so printing and parsing round-trip and the table
// is visible like any module attribute.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/module.h"

namespace passlab {

/// The module attribute holding the table `meta[VirtualDevice][N]` indexes.
inline constexpr const char* kVirtualDevicesAttr = "virtual_devices";
/// The metadata kind of a virtual-device reference.
inline constexpr const char* kVirtualDeviceKind = "VirtualDevice";

/// DLPack device types (TVM's DLDeviceType) passlab knows by name.
namespace device_type {
inline constexpr int kUnknown = 0;  ///< a placeholder: the text did not say
inline constexpr int kCPU = 1;
inline constexpr int kCUDA = 2;
inline constexpr int kHexagon = 16;
}  // namespace device_type

/// "cpu", "cuda", "hexagon", or "device_type=N".
std::string deviceTypeName(int deviceType);

/// One virtual device: a device type and id, the target compiling for it and
/// a memory scope (TVM's VirtualDevice fields).
struct VirtualDevice {
  int deviceType = device_type::kUnknown;
  int virtualDeviceId = 0;
  /// Target string ("llvm", "hexagon -mcpu=hexagonv68"); empty when not given.
  std::string target;
  std::string memoryScope;

  /// True when the text gave nothing but the reference (a placeholder).
  bool isPlaceholder() const { return deviceType == device_type::kUnknown && target.empty(); }
  /// The table entry: {"device_type": 16, "virtual_device_id": 0, "target": "...", "memory_scope": ""}.
  AttrValue toAttr() const;
  /// Reads a table entry; missing fields keep their defaults.
  static VirtualDevice fromAttr(const AttrValue& entry);
  /// `hexagon:0`: device type and id.
  std::string shortName() const { return deviceTypeName(deviceType) + ":" + std::to_string(virtualDeviceId); }
  /// One-line description: `hexagon:0 (target "hexagon -mcpu=hexagonv68")`.
  std::string describe() const;
  friend bool operator==(const VirtualDevice& a, const VirtualDevice& b) {
    return a.deviceType == b.deviceType && a.virtualDeviceId == b.virtualDeviceId && a.target == b.target &&
           a.memoryScope == b.memoryScope;
  }
};

/// The device type a target string compiles for: hexagon → 16, cuda → 2,
/// llvm/c → 1; 0 when the target is empty or unknown.
int deviceTypeOfTarget(std::string_view target);

/// The module's table (empty when it has none).
std::vector<VirtualDevice> virtualDeviceTable(const IRModule& mod);
/// True when `value` is `meta[VirtualDevice][N]`.
bool isVirtualDeviceRef(const AttrValue& value);
/// What `meta[VirtualDevice][N]` stands for: the table entry, or a
/// placeholder when the module's table does not reach N.
VirtualDevice resolveVirtualDevice(const IRModule& mod, const AttrValue& ref);
/// `ref` followed by what it stands for: `meta[VirtualDevice][1] (hexagon:0)`.
std::string describeVirtualDeviceRef(const IRModule& mod, const AttrValue& ref);

/// The index of `device` in `table`, appending it when absent.
int64_t internVirtualDevice(std::vector<VirtualDevice>& table, const VirtualDevice& device);
/// `mod` with its `virtual_devices` attribute replaced by `table`.
IRModule withVirtualDeviceTable(const IRModule& mod, const std::vector<VirtualDevice>& table);

}  // namespace passlab

#include "core/ir/virtual_device.h"

namespace passlab {

AttrValue VirtualDevice::toAttr() const {
  AttrDict d;
  d.set("device_type", AttrValue::integer(deviceType));
  d.set("virtual_device_id", AttrValue::integer(virtualDeviceId));
  d.set("target", AttrValue::string(target));
  d.set("memory_scope", AttrValue::string(memoryScope));
  return AttrValue::dict(std::move(d));
}

VirtualDevice VirtualDevice::fromAttr(const AttrValue& entry) {
  VirtualDevice v;
  const AttrDict& d = entry.asDict();
  v.deviceType = static_cast<int>(d.getInt("device_type", device_type::kUnknown));
  v.virtualDeviceId = static_cast<int>(d.getInt("virtual_device_id", 0));
  v.target = d.getString("target");
  v.memoryScope = d.getString("memory_scope");
  if (v.deviceType == device_type::kUnknown) v.deviceType = deviceTypeOfTarget(v.target);
  return v;
}

std::string deviceTypeName(int deviceType) {
  switch (deviceType) {
    case device_type::kCPU: return "cpu";
    case device_type::kCUDA: return "cuda";
    case device_type::kHexagon: return "hexagon";
    default: return "device_type=" + std::to_string(deviceType);
  }
}

int deviceTypeOfTarget(std::string_view target) {
  std::string_view kind = target.substr(0, target.find(' '));
  if (kind == "hexagon") return device_type::kHexagon;
  if (kind == "cuda") return device_type::kCUDA;
  if (kind == "llvm" || kind == "c") return device_type::kCPU;
  return device_type::kUnknown;
}

std::string VirtualDevice::describe() const {
  if (isPlaceholder()) return "unknown device";
  std::string out = shortName();
  if (!target.empty()) out += " (target \"" + target + "\")";
  if (!memoryScope.empty()) out += " scope \"" + memoryScope + "\"";
  return out;
}

std::vector<VirtualDevice> virtualDeviceTable(const IRModule& mod) {
  std::vector<VirtualDevice> table;
  if (!mod) return table;
  if (const AttrValue* v = mod->attrs.find(kVirtualDevicesAttr))
    for (const AttrValue& entry : v->asArray()) table.push_back(VirtualDevice::fromAttr(entry));
  return table;
}

bool isVirtualDeviceRef(const AttrValue& value) {
  return value.kind() == AttrValue::Kind::MetaRef && value.metaKind() == kVirtualDeviceKind;
}

VirtualDevice resolveVirtualDevice(const IRModule& mod, const AttrValue& ref) {
  if (!isVirtualDeviceRef(ref) || !mod) return {};
  const AttrValue* table = mod->attrs.find(kVirtualDevicesAttr);
  if (!table || ref.metaIndex() < 0 || static_cast<size_t>(ref.metaIndex()) >= table->asArray().size()) return {};
  return VirtualDevice::fromAttr(table->asArray()[static_cast<size_t>(ref.metaIndex())]);
}

std::string describeVirtualDeviceRef(const IRModule& mod, const AttrValue& ref) {
  if (!isVirtualDeviceRef(ref)) return ref.toString();
  VirtualDevice d = resolveVirtualDevice(mod, ref);
  return ref.toString() + " (" + (d.isPlaceholder() ? "placeholder" : d.describe()) + ")";
}

int64_t internVirtualDevice(std::vector<VirtualDevice>& table, const VirtualDevice& device) {
  for (size_t i = 0; i < table.size(); ++i)
    if (table[i] == device) return static_cast<int64_t>(i);
  table.push_back(device);
  return static_cast<int64_t>(table.size() - 1);
}

IRModule withVirtualDeviceTable(const IRModule& mod, const std::vector<VirtualDevice>& table) {
  std::vector<AttrValue> entries;
  entries.reserve(table.size());
  for (const VirtualDevice& d : table) entries.push_back(d.toAttr());
  AttrDict attrs = mod->attrs;
  attrs.set(kVirtualDevicesAttr, AttrValue::array(std::move(entries)));
  return withModuleAttrs(mod, std::move(attrs));
}

}  // namespace passlab

// Virtual devices in Relax TVMScript: `I.module_global_infos({"vdevice":
// [...]})`, `R.to_vdevice` and `R.hint_on_device`, read onto passlab's table of
// virtual devices (the module attribute `virtual_devices`, core/ir/
// virtual_device.h) and the device_copy / on_device ops, and printed back
// (tvmscript_device.h).
#include "core/text/tvmscript_device.h"
#include "core/text/tvmscript_module.h"

namespace passlab::tvmscript {

namespace {

/// A target as TVM's printer exports it ({"kind": "llvm", "mcpu": ..., ...})
/// as passlab's target string ("llvm -mcpu=..."); the other keys (keys, tag,
/// ...) are TVM's defaults and carry nothing passlab uses.
std::string targetOfConfig(const AttrDict& config) {
  std::string s = config.getString("kind");
  for (const char* key : {"mtriple", "mcpu", "mattr"}) {
    const AttrValue* v = config.find(key);
    if (!v) continue;
    std::string value = v->kind() == AttrValue::Kind::String ? v->asString() : "";
    if (v->kind() == AttrValue::Kind::Array)
      for (const AttrValue& item : v->asArray()) value += (value.empty() ? "" : ",") + item.asString();
    if (!value.empty()) s += std::string(" -") + key + "=" + value;
  }
  return s;
}

}  // namespace

void ModuleParser::parseGlobalInfos() {
  takeDotted("");
  expect(PyTok::LParen, "'('");
  expect(PyTok::LBrace, "'{'");
  while (!check(PyTok::RBrace)) {
    const PyToken& key = expect(PyTok::String, "a string key");
    expect(PyTok::Colon, "':'");
    if (decodePyString(key.text) != "vdevice")
      fail(key, "global info " + std::string(key.text) + " is not one passlab reads (only \"vdevice\")");
    expect(PyTok::LBracket, "'['");
    while (!check(PyTok::RBracket)) {
      const PyToken& d = peek();
      if (!checkDotted(irAlias + ".vdevice")) failExpected("I.vdevice(target, vdevice_id, memory_scope)");
      takeDotted("");
      expect(PyTok::LParen, "'('");
      std::vector<ScriptArg> args = parseCallArgs();
      VirtualDevice v;
      size_t positional = 0;
      for (const ScriptArg& a : args) {
        std::string role = a.keyword.empty() ? (positional == 0 ? "target" : positional == 1 ? "vdevice_id" : "memory_scope") : a.keyword;
        if (a.keyword.empty()) ++positional;
        if (!a.isLiteral) fail(a.at, "the " + role + " of I.vdevice must be a literal");
        const AttrValue& l = a.literal;
        if (role == "target" && l.kind() == AttrValue::Kind::String) v.target = l.asString();
        else if (role == "target" && l.kind() == AttrValue::Kind::Dict) v.target = targetOfConfig(l.asDict());
        else if (role == "vdevice_id" && l.kind() == AttrValue::Kind::Int && l.asInt() >= 0 && l.asInt() <= 1024)
          v.virtualDeviceId = static_cast<int>(l.asInt());
        else if (role == "memory_scope" && l.kind() == AttrValue::Kind::String) v.memoryScope = l.asString();
        else fail(a.at, "I.vdevice takes a target (a string or TVM's target dict), a vdevice_id between 0 and 1024 and a memory scope string");
      }
      if (v.target.empty()) fail(d, "I.vdevice needs its target, such as I.vdevice(\"llvm\", 0, \"global\")");
      v.deviceType = deviceTypeOfTarget(v.target);
      if (v.memoryScope.empty()) v.memoryScope = "global";
      vdevices_.push_back(std::move(v));
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RBracket, "']'");
    if (!accept(PyTok::Comma)) break;
  }
  expect(PyTok::RBrace, "'}'");
  expect(PyTok::RParen, "')'");
  expectEndOfStatement();
}

Expr ModuleParser::parseDeviceCall(std::string_view name, const PyToken& at) {
  if (name != "to_vdevice" && name != "hint_on_device") return nullptr;
  std::vector<ScriptArg> args = parseCallArgs();
  Span span = spanOf(at);
  if (args.empty() || !args[0].value || !args[0].keyword.empty()) fail(at, "R." + std::string(name) + " takes the value first");
  if (name == "to_vdevice") {
    // "llvm:0" or "llvm:0:global": the 0th device of kind llvm among the
    // module's global infos (TVM's parser looks them up the same way).
    const ScriptArg* dst = args.size() > 1 ? &args[1] : nullptr;
    if (!dst || !dst->isLiteral || dst->literal.kind() != AttrValue::Kind::String || (!dst->keyword.empty() && dst->keyword != "dst_vdevice"))
      fail(at, "R.to_vdevice takes the value and dst_vdevice=\"kind:index\" (such as \"llvm:0\")");
    std::string spec = dst->literal.asString();
    size_t c1 = spec.find(':');
    size_t c2 = c1 == std::string::npos ? c1 : spec.find(':', c1 + 1);
    std::string kind = spec.substr(0, c1);
    int64_t index = -1;
    try {
      index = c1 == std::string::npos ? 0 : std::stoll(spec.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1));
    } catch (const std::exception&) {
      fail(dst->at, "dst_vdevice \"" + spec + "\" is not kind:index");
    }
    int64_t seen = 0, found = -1;
    for (size_t i = 0; i < vdevices_.size() && found < 0; ++i) {
      if (vdevices_[i].target.empty() || vdevices_[i].target.substr(0, vdevices_[i].target.find(' ')) != kind) continue;
      if (seen++ == index) found = static_cast<int64_t>(i);
    }
    if (found < 0)
      fail(dst->at, "no virtual device \"" + spec + "\": I.module_global_infos lists " + std::to_string(seen) + " of kind " + kind);
    return makeOpCall(OpId::DeviceCopy, {args[0].value}, {{"dst_virtual_device", AttrValue::metaRef(kVirtualDeviceKind, found)}}, span);
  }
  // hint_on_device(x, R.device(device_type=1, index=0), memory_scope="global")
  if (args.size() < 2 || !args[1].isLiteral || args[1].literal.kind() != AttrValue::Kind::Dict)
    fail(at, "R.hint_on_device takes the value and a device: R.hint_on_device(x, R.device(device_type=1, index=0))");
  const AttrDict& dev = args[1].literal.asDict();
  VirtualDevice v;
  int64_t type = dev.getInt("device_type", 0);
  if (type < 1 || type > 64)
    fail(args[1].at, "R.device's device_type must be a DLPack device type (1 = cpu, 2 = cuda, 16 = hexagon, ...), got " +
                         std::to_string(type));
  int64_t id = dev.getInt("index", 0);
  if (id < 0 || id > 1024) fail(args[1].at, "R.device's index must be between 0 and 1024, got " + std::to_string(id));
  v.deviceType = static_cast<int>(type);
  v.virtualDeviceId = static_cast<int>(id);
  v.memoryScope = "global";
  if (args.size() > 2) {
    if (!args[2].isLiteral || args[2].literal.kind() != AttrValue::Kind::String) fail(args[2].at, "the memory scope must be a string");
    v.memoryScope = args[2].literal.asString();
  }
  int64_t index = internVirtualDevice(vdevices_, v);
  return makeOpCall(OpId::OnDevice, {args[0].value}, {{"virtual_device", AttrValue::metaRef(kVirtualDeviceKind, index)}}, span);
}

}  // namespace passlab::tvmscript

// ---- Printing -----------------------------------------------------------------

namespace passlab::tvmscript {

namespace {

/// "llvm" of "llvm -mcpu=...": the target kind TVM's vdevice strings name.
std::string kindOf(const std::string& target) { return target.substr(0, target.find(' ')); }

/// The table entry `call`'s attribute `key` refers to, or null.
const VirtualDevice* entryOf(const CallNode& call, const char* key, const std::vector<VirtualDevice>& vdevices) {
  const AttrValue* ref = call.attrs.find(key);
  if (!ref || !isVirtualDeviceRef(*ref)) return nullptr;
  std::string s = ref->toString();
  int64_t i = -1;
  try {
    i = std::stoll(s.substr(s.rfind('[') + 1));
  } catch (const std::exception&) {
    return nullptr;
  }
  return i >= 0 && i < static_cast<int64_t>(vdevices.size()) ? &vdevices[static_cast<size_t>(i)] : nullptr;
}

}  // namespace

std::vector<VirtualDevice> scriptVirtualDevices(const IRModule& mod) {
  std::vector<VirtualDevice> table = virtualDeviceTable(mod);
  for (const VirtualDevice& v : table)
    if (v.isPlaceholder()) return {};
  return table;
}

std::string globalInfosText(const std::vector<VirtualDevice>& vdevices) {
  std::string infos;
  for (const VirtualDevice& v : vdevices)
    if (!v.target.empty())
      infos += (infos.empty() ? "" : ", ") + std::string("I.vdevice(") + scriptQuoted(v.target) + ", " +
               std::to_string(v.virtualDeviceId) + ", " + scriptQuoted(v.memoryScope.empty() ? "global" : v.memoryScope) + ")";
  return infos.empty() ? "" : "I.module_global_infos({\"vdevice\": [" + infos + "]})";
}

std::string deviceCallText(const CallNode& call, const std::vector<std::string>& args, const std::vector<VirtualDevice>& vdevices) {
  if (vdevices.empty() || args.size() != 1 || !call.op()) return "";
  if (call.op()->id == OpId::DeviceCopy) {
    const VirtualDevice* dst = entryOf(call, "dst_virtual_device", vdevices);
    if (!dst || dst->target.empty() || call.attrs.find("src_virtual_device")) return "";
    int index = 0;
    for (const VirtualDevice& v : vdevices) {
      if (&v == dst) break;
      if (!v.target.empty() && kindOf(v.target) == kindOf(dst->target)) ++index;
    }
    return "R.to_vdevice(" + args[0] + ", dst_vdevice=" + scriptQuoted(kindOf(dst->target) + ":" + std::to_string(index) + ":" + dst->memoryScope) +
           ")";
  }
  if (call.op()->id != OpId::OnDevice) return "";
  const VirtualDevice* dev = entryOf(call, "virtual_device", vdevices);
  if (!dev || !dev->target.empty() || call.attrs.size() != 1) return "";
  return "R.hint_on_device(" + args[0] + ", R.device(device_type=" + std::to_string(dev->deviceType) +
         ", index=" + std::to_string(dev->virtualDeviceId) + "), " + scriptQuoted(dev->memoryScope) + ")";
}

}  // namespace passlab::tvmscript

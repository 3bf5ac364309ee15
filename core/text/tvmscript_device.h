// Virtual devices in TVMScript's printed form (the reading side is
// ModuleParser::parseGlobalInfos / parseDeviceCall): I.module_global_infos,
// R.to_vdevice and R.hint_on_device from passlab's table of virtual devices.
#pragma once

#include <string>
#include <vector>

#include "core/ir/expr.h"
#include "core/ir/module.h"
#include "core/ir/virtual_device.h"

namespace passlab::tvmscript {

/// The module's virtual devices when they print in TVM's form: every one is
/// a device of the global infos (a target) or one R.hint_on_device names (a
/// device type, no target). Empty otherwise (a placeholder from Relay text):
/// the table then stays a module attribute and the ops keep passlab's names.
std::vector<VirtualDevice> scriptVirtualDevices(const IRModule& mod);
/// `I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), ...]})`
/// for the devices with a target; empty when there are none.
std::string globalInfosText(const std::vector<VirtualDevice>& vdevices);
/// device_copy to a device of the global infos as R.to_vdevice(x,
/// dst_vdevice="llvm:0:global") (the index counts devices of the same kind, as
/// TVM's printer does); on_device of a hint device as R.hint_on_device(x,
/// R.device(device_type=1, index=0), "global"). `args` are the printed
/// operands. Empty for anything else.
std::string deviceCallText(const CallNode& call, const std::vector<std::string>& args, const std::vector<VirtualDevice>& vdevices);
/// A Python string literal (the printer's quoting).
std::string scriptQuoted(const std::string& s);

}  // namespace passlab::tvmscript

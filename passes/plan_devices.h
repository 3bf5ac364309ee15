// PlanDevices: decides on which virtual device every value of the graph-level
// functions lives, as TVM's relay.transform.PlanDevices does, and inserts the
// copies the plan needs.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The PlanDevices pass.
///
/// What decides a device (each decision is recorded in the trace as a config
/// read with source "IR annotation", key `device.@f`, `device.@f.%param` or
/// `device_copy.@f.N`, its value saying which annotation or target decided):
///  * `on_device(e, virtual_device=D)`: e is computed on D. Unless
///    constrain_result=True the result may be wanted elsewhere: the annotation
///    becomes `on_device(e, virtual_device=D, constrain_result=True)` followed
///    by `device_copy(.., src_virtual_device=D, dst_virtual_device=...)` when its
///    consumer is on another device (TVM's form).
///  * `device_copy(e, src_virtual_device=S, dst_virtual_device=D)`: e on S, the copy on D.
///  * a parameter's `virtual_device` and a function's `virtual_device` attribute.
///  * a call of a global function with a `target` attribute naming another
///    device kind (host code calling Hexagon code in one module, seed 004): the
///    call runs on that target's device; arguments computed elsewhere are
///    copied to it.
///  * everything else follows its operands and consumers (an op computes where
///    its arguments live); what nothing constrains goes to the default device:
///    relay.fallback_device_type when set, else the context target's kind, else cpu.
///
/// Results: every parameter carries `{virtual_device=meta[VirtualDevice][N]}`,
/// every planned function a `virtual_device` attribute (its result's device),
/// and the module's `virtual_devices` table holds every device used (entries
/// are added for targets and the default). Two annotations that put one value
/// on two devices fail the pass (rule `plan-devices.conflict`, both reasons
/// named). External (Compiler/Extern) functions are skipped, the skip recorded.
/// Running the pass on its own result changes nothing.
PassPtr createPlanDevicesPass();

/// Config key: the DLPack device type of the default device (1 cpu, 2 cuda, 16 hexagon).
inline constexpr const char* kFallbackDeviceTypeKey = "relay.fallback_device_type";

}  // namespace passlab

#include "passes/registry.h"

#include "passes/build_pipeline.h"

namespace passlab {

void registerBuiltinPasses(PassRegistry& registry) {
  // The passes of this library declared themselves (one PassRegistrar per pass
  // file); declaredPasses() lists them by name, so the order is the same on
  // every link.
  for (const PassRegistration* r : declaredPasses()) registry.add(*r);
  for (const NamedPipeline& p : builtinNamedPipelines()) registry.addPipeline(p);
}

}  // namespace passlab

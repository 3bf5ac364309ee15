#include "core/interp/value.h"

namespace passlab {

const Value* Scope::find(const VarNode* var) const {
  for (const Scope* s = this; s; s = s->parent.get()) {
    auto it = s->bindings.find(var);
    if (it != s->bindings.end()) return &it->second;
  }
  return nullptr;
}

Value Value::tuple(std::vector<Value> fields) {
  Value v;
  v.kind_ = Kind::Tuple;
  v.fields_ = std::make_shared<const std::vector<Value>>(std::move(fields));
  return v;
}

Value Value::closure(Closure c) {
  Value v;
  v.kind_ = Kind::Closure;
  v.closure_ = std::make_shared<const Closure>(std::move(c));
  return v;
}

const std::vector<Value>& Value::fields() const {
  // A default-constructed Value is the empty tuple and owns no vector.
  static const std::vector<Value> kEmpty;
  return fields_ ? *fields_ : kEmpty;
}

std::string Value::describe() const {
  switch (kind_) {
    case Kind::Tensor: return typeToString(tensorType(tensor_.shape(), tensor_.dtype()));
    case Kind::Tuple: {
      std::string out = "(";
      const auto& fs = fields();
      for (size_t i = 0; i < fs.size(); ++i) out += (i ? ", " : "") + fs[i].describe();
      return out + (fs.size() == 1 ? ",)" : ")");
    }
    case Kind::Closure:
      return closure_->globalName.empty() ? std::string("closure") : "closure @" + closure_->globalName;
  }
  return "?";
}

}  // namespace passlab

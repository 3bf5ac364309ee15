// Kernels that differ only in sizes share one compiled body (see shared_bodies.h).
#include "codegen/shared_bodies.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

namespace passlab::codegen {

namespace {

/// Constants up to this magnitude stay in the code (see shareKernelBodies).
constexpr int64_t kLargestStructuralConstant = 16;
/// The bytes of the widest host's vector registers (32 of 64 bytes, AVX-512):
/// no register tile is longer.
constexpr uint64_t kVectorRegisterFileBytes = 32 * 64;

/// The loops of the functions compared. In an innermost loop a small
/// constant is a trip count to unroll, a window or a lane stride.
class Loops {
 public:
  /// The innermost loop `inst` is in, if it is in one.
  const llvm::Loop* innermostOf(const llvm::Instruction& inst) {
    const llvm::Function* f = inst.getFunction();
    auto [it, added] = info_.try_emplace(f);
    if (added) {
      it->second.dominators = std::make_unique<llvm::DominatorTree>(const_cast<llvm::Function&>(*f));
      it->second.loops = std::make_unique<llvm::LoopInfo>(*it->second.dominators);
    }
    const llvm::Loop* l = it->second.loops->getLoopFor(inst.getParent());
    return l && l->isInnermost() ? l : nullptr;
  }

 private:
  struct Info {
    std::unique_ptr<llvm::DominatorTree> dominators;
    std::unique_ptr<llvm::LoopInfo> loops;
  };
  std::map<const llvm::Function*, Info> info_;
};

/// Whether `v` may take a different value in each iteration of `l`.
bool variesIn(const llvm::Value* v, const llvm::Loop& l, std::set<const llvm::Value*>& seen) {
  const auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (!i || !l.contains(i)) return false;
  if (llvm::isa<llvm::PHINode>(i) || i->mayReadOrWriteMemory()) return true;
  if (!seen.insert(i).second) return false;
  for (const llvm::Value* operand : i->operands())
    if (variesIn(operand, l, seen)) return true;
  return false;
}

/// Whether a floating-point constant can be read from an argument without
/// losing a fold (x * 1, x + 0).
bool plainFloat(const llvm::ConstantFP& c) {
  const llvm::APFloat& v = c.getValueAPF();
  return !v.isZero() && !v.isExactlyValue(1.0) && !v.isExactlyValue(-1.0) && v.isFiniteNonZero();
}

/// Whether `a` is a stack buffer (an array) that only bitcasts read: its
/// length may then differ between kernels sharing a body, which allocates the
/// longest.
bool resizableBuffer(const llvm::AllocaInst& a) {
  const auto* array = llvm::dyn_cast<llvm::ArrayType>(a.getAllocatedType());
  if (!array || a.isArrayAllocation() || !a.isStaticAlloca()) return false;
  for (const llvm::User* u : a.users())
    if (!llvm::isa<llvm::BitCastInst>(u)) return false;
  return true;
}

/// Whether `a` and `b` are stack buffers of one element type and alignment
/// that differ at most in length (resizableBuffer). A buffer that fits in the
/// vector registers may be a register tile, which SROA keeps in registers
/// only while its zeroing has a constant length: the longer one must not fit.
bool sameButLength(const llvm::AllocaInst& a, const llvm::AllocaInst& b) {
  if (a.getAlign() != b.getAlign()) return false;
  if (a.getAllocatedType() == b.getAllocatedType()) return true;
  if (!resizableBuffer(a) || !resizableBuffer(b) ||
      a.getAllocatedType()->getArrayElementType() != b.getAllocatedType()->getArrayElementType())
    return false;
  const llvm::DataLayout& layout = a.getModule()->getDataLayout();
  return std::max(layout.getTypeAllocSize(a.getAllocatedType()), layout.getTypeAllocSize(b.getAllocatedType())) > kVectorRegisterFileBytes;
}

/// Whether operand `k` of `inst` may be a different constant in kernels that
/// share a body: the body then reads it from an argument.
bool mayVary(const llvm::Instruction& inst, unsigned k, Loops& loops) {
  const llvm::Value* operand = inst.getOperand(k);
  if (const auto* f = llvm::dyn_cast<llvm::ConstantFP>(operand)) {
    // Averages divide by a window's size; without fast-math LLVM keeps the division either way.
    switch (inst.getOpcode()) {
      case llvm::Instruction::FAdd:
      case llvm::Instruction::FSub:
      case llvm::Instruction::FMul:
      case llvm::Instruction::FDiv:
        return plainFloat(*f);
      default:
        return false;
    }
  }
  const auto* c = llvm::dyn_cast<llvm::ConstantInt>(operand);
  if (!c || c->getBitWidth() < 8) return false;
  // The length of a stack buffer's zeroing follows the buffer's (sameButLength).
  if (const auto* set = llvm::dyn_cast<llvm::MemSetInst>(&inst)) {
    const auto* buffer = llvm::dyn_cast<llvm::AllocaInst>(set->getDest()->stripPointerCasts());
    return k == 2 && buffer && resizableBuffer(*buffer);
  }
  const bool small = c->getValue().getMinSignedBits() <= 64 && std::abs(c->getSExtValue()) <= kLargestStructuralConstant;
  if (small) {
    // In an innermost loop only loop-invariant arithmetic may take it as an
    // argument: it is hoisted, while trip counts and index strides shape the code.
    if (const llvm::Loop* l = loops.innermostOf(inst)) {
      if (!llvm::isa<llvm::BinaryOperator>(inst)) return false;
      std::set<const llvm::Value*> seen;
      for (const llvm::Value* other : inst.operands())
        if (variesIn(other, *l, seen)) return false;
    }
  }
  switch (inst.getOpcode()) {
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SRem:
    case llvm::Instruction::URem:
      // A constant divisor becomes a multiply; a variable one, a division.
      return k == 0;
    default:
      break;
  }
  if (llvm::isa<llvm::BinaryOperator>(inst) || llvm::isa<llvm::ICmpInst>(inst) || llvm::isa<llvm::SelectInst>(inst) ||
      llvm::isa<llvm::PHINode>(inst))
    return true;
  if (const auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst)) return gep->getNumIndices() == 1 && k == 1;
  return false;
}

/// Whether two instructions carry the same metadata. Loop metadata is
/// distinct per loop (it names itself), so only its properties are compared.
bool sameMetadata(const llvm::Instruction& a, const llvm::Instruction& b) {
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode*>, 4> ma, mb;
  a.getAllMetadata(ma);
  b.getAllMetadata(mb);
  if (ma.size() != mb.size()) return false;
  for (size_t i = 0; i < ma.size(); ++i) {
    if (ma[i].first != mb[i].first) return false;
    if (ma[i].second == mb[i].second) continue;
    if (ma[i].first != llvm::LLVMContext::MD_loop) return false;
    const llvm::MDNode *x = ma[i].second, *y = mb[i].second;
    if (x->getNumOperands() != y->getNumOperands()) return false;
    for (unsigned k = 1; k < x->getNumOperands(); ++k)
      if (x->getOperand(k) != y->getOperand(k)) return false;
  }
  return true;
}

/// Whether `ia` and `ib` are the same operation, allowing for stack buffers
/// of different lengths (`local` maps `a`'s values to `b`'s).
bool sameOperation(const llvm::Instruction& ia, const llvm::Instruction& ib, const llvm::DenseMap<const llvm::Value*, const llvm::Value*>& local) {
  if (ia.getOpcode() != ib.getOpcode()) return false;
  if (const auto* x = llvm::dyn_cast<llvm::AllocaInst>(&ia)) {
    const auto& y = llvm::cast<llvm::AllocaInst>(ib);
    return x->getOperand(0) == y.getOperand(0) && sameButLength(*x, y);
  }
  if (ia.getType() != ib.getType()) return false;
  // A buffer's cast to its element pointer: the source types differ with the lengths.
  if (llvm::isa<llvm::BitCastInst>(ia) && llvm::isa<llvm::AllocaInst>(ia.getOperand(0)))
    return local.lookup(ia.getOperand(0)) == ib.getOperand(0) && llvm::isa<llvm::AllocaInst>(ib.getOperand(0));
  return ia.isSameOperationAs(&ib);
}

/// Whether `b` is `a` up to constants that may vary (mayVary at both) and
/// stack buffers' lengths (sameButLength).
bool sameUpToSizes(const llvm::Function& a, const llvm::Function& b, Loops& loops) {
  if (a.getFunctionType() != b.getFunctionType() || a.getAttributes() != b.getAttributes() || a.size() != b.size()) return false;
  llvm::DenseMap<const llvm::Value*, const llvm::Value*> local;
  for (auto x = a.arg_begin(), y = b.arg_begin(); x != a.arg_end(); ++x, ++y) local[&*x] = &*y;
  for (auto ba = a.begin(), bb = b.begin(); ba != a.end(); ++ba, ++bb) {
    if (ba->size() != bb->size()) return false;
    local[&*ba] = &*bb;
    for (auto ia = ba->begin(), ib = bb->begin(); ia != ba->end(); ++ia, ++ib) local[&*ia] = &*ib;
  }
  for (auto ba = a.begin(), bb = b.begin(); ba != a.end(); ++ba, ++bb)
    for (auto ia = ba->begin(), ib = bb->begin(); ia != ba->end(); ++ia, ++ib) {
      if (!sameOperation(*ia, *ib, local) || ia->getRawSubclassOptionalData() != ib->getRawSubclassOptionalData() || !sameMetadata(*ia, *ib))
        return false;
      for (unsigned k = 0; k < ia->getNumOperands(); ++k) {
        const llvm::Value *x = ia->getOperand(k), *y = ib->getOperand(k);
        auto mapped = local.find(x);
        if (mapped != local.end() ? mapped->second == y : x == y) continue;
        if (mapped == local.end() && mayVary(*ia, k, loops) && mayVary(*ib, k, loops)) continue;
        return false;
      }
      if (const auto* phi = llvm::dyn_cast<llvm::PHINode>(&*ia))
        for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
          if (local.lookup(phi->getIncomingBlock(k)) != llvm::cast<llvm::PHINode>(*ib).getIncomingBlock(k)) return false;
    }
  return true;
}

/// A cheap key that equal-up-to-sizes functions share: their opcodes and types.
std::string outlineOf(const llvm::Function& f) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(f.getFunctionType())) + ":";
  for (const llvm::BasicBlock& b : f) {
    key += '|';
    for (const llvm::Instruction& i : b) {
      key += std::to_string(i.getOpcode());
      key += ',';
    }
  }
  return key;
}

/// An operand of an instruction, by the instruction's position in its function.
struct Site {
  size_t instruction;
  unsigned operand;
  size_t parameter;
};

/// The instructions of `f` in order.
std::vector<llvm::Instruction*> instructionsOf(llvm::Function& f) {
  std::vector<llvm::Instruction*> out;
  for (llvm::BasicBlock& b : f)
    for (llvm::Instruction& i : b) out.push_back(&i);
  return out;
}

/// Makes `members` (equal up to sizes) call one new body; returns it.
SharedBody makeBody(llvm::Module& m, const std::vector<llvm::Function*>& members, Loops& loops) {
  // The places whose constants differ between members; places with the same
  // values in every member share a parameter.
  std::vector<std::vector<llvm::Instruction*>> code;
  for (llvm::Function* f : members) code.push_back(instructionsOf(*f));
  std::vector<Site> sites;
  std::map<std::vector<const llvm::Value*>, size_t> parameterOf;
  std::vector<std::vector<const llvm::Value*>> parameterValues;
  for (size_t i = 0; i < code[0].size(); ++i)
    for (unsigned k = 0; k < code[0][i]->getNumOperands(); ++k) {
      if (!mayVary(*code[0][i], k, loops)) continue;
      std::vector<const llvm::Value*> values;
      for (const auto& c : code) values.push_back(c[i]->getOperand(k));
      bool allEqual = true;
      for (const llvm::Value* v : values) allEqual = allEqual && v == values[0];
      if (allEqual) continue;
      auto [it, added] = parameterOf.emplace(values, parameterValues.size());
      if (added) parameterValues.push_back(values);
      sites.push_back({i, k, it->second});
    }

  llvm::Function* first = members[0];
  std::vector<llvm::Type*> types(first->getFunctionType()->param_begin(), first->getFunctionType()->param_end());
  for (const auto& values : parameterValues) types.push_back(values[0]->getType());
  auto* type = llvm::FunctionType::get(first->getReturnType(), types, false);
  llvm::Function* body = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, "__passlab_body_" + first->getName(), m);
  llvm::ValueToValueMapTy map;
  auto arg = body->arg_begin();
  for (llvm::Argument& a : first->args()) map[&a] = &*arg++;
  llvm::SmallVector<llvm::ReturnInst*, 4> returns;
  llvm::CloneFunctionInto(body, first, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  body->addFnAttr(llvm::Attribute::NoInline);
  std::vector<llvm::Instruction*> cloned = instructionsOf(*body);
  const unsigned arity = static_cast<unsigned>(first->arg_size());
  for (const Site& s : sites) cloned[s.instruction]->setOperand(s.operand, body->getArg(arity + static_cast<unsigned>(s.parameter)));
  // Stack buffers whose lengths differ: the body allocates the longest. The
  // positions are taken first: rewriting erases the buffers' casts.
  std::vector<size_t> buffers;
  for (size_t i = 0; i < cloned.size(); ++i)
    if (llvm::isa<llvm::AllocaInst>(cloned[i])) buffers.push_back(i);
  for (size_t i : buffers) {
    auto* buffer = llvm::cast<llvm::AllocaInst>(cloned[i]);
    if (!llvm::isa<llvm::ArrayType>(buffer->getAllocatedType())) continue;  // then equal in every member (sameButLength)
    uint64_t longest = 0;
    for (const auto& c : code) longest = std::max(longest, llvm::cast<llvm::AllocaInst>(c[i])->getAllocatedType()->getArrayNumElements());
    auto* type = llvm::cast<llvm::ArrayType>(buffer->getAllocatedType());
    if (type->getNumElements() == longest) continue;
    auto* replacement = new llvm::AllocaInst(llvm::ArrayType::get(type->getElementType(), longest), buffer->getAddressSpace(), nullptr,
                                             buffer->getAlign(), "", buffer);
    replacement->takeName(buffer);
    for (llvm::User* u : llvm::make_early_inc_range(buffer->users())) {
      auto* cast = llvm::cast<llvm::BitCastInst>(u);
      cast->replaceAllUsesWith(new llvm::BitCastInst(replacement, cast->getType(), cast->getName(), cast));
      cast->eraseFromParent();
    }
    buffer->eraseFromParent();
  }

  SharedBody out;
  out.body = body->getName().str();
  out.parameters = static_cast<int>(parameterValues.size());
  for (size_t member = 0; member < members.size(); ++member) {
    llvm::Function* f = members[member];
    out.kernels.push_back(f->getName().str());
    const llvm::GlobalValue::LinkageTypes linkage = f->getLinkage();
    const llvm::GlobalValue::VisibilityTypes visibility = f->getVisibility();
    f->deleteBody();
    f->setLinkage(linkage);
    f->setVisibility(visibility);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(m.getContext(), "entry", f));
    std::vector<llvm::Value*> args;
    for (llvm::Argument& a : f->args()) args.push_back(&a);
    for (const auto& values : parameterValues) args.push_back(const_cast<llvm::Value*>(values[member]));
    llvm::CallInst* call = b.CreateCall(body, args);
    call->setTailCall();
    if (type->getReturnType()->isVoidTy()) b.CreateRetVoid();
    else b.CreateRet(call);
  }
  return out;
}

}  // namespace

std::vector<SharedBody> shareKernelBodies(llvm::Module& m, const std::vector<std::string>& kernels) {
  // Buckets by outline, then groups within a bucket by the full comparison
  // against each group's first member.
  std::map<std::string, std::vector<std::vector<llvm::Function*>>> buckets;
  const std::set<std::string> candidates(kernels.begin(), kernels.end());
  Loops loops;
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || !candidates.count(f.getName().str())) continue;
    std::vector<std::vector<llvm::Function*>>& groups = buckets[outlineOf(f)];
    bool placed = false;
    for (std::vector<llvm::Function*>& g : groups)
      if (sameUpToSizes(*g[0], f, loops)) {
        g.push_back(&f);
        placed = true;
        break;
      }
    if (!placed) groups.push_back({&f});
  }
  // In module order, so the bodies' names and order do not depend on hashing.
  std::vector<std::vector<llvm::Function*>> groups;
  for (auto& [outline, list] : buckets)
    for (auto& g : list)
      if (g.size() > 1) groups.push_back(g);
  std::map<const llvm::Function*, size_t> position;
  for (llvm::Function& f : m) position[&f] = position.size();
  std::sort(groups.begin(), groups.end(), [&](const auto& x, const auto& y) { return position[x[0]] < position[y[0]]; });
  std::vector<SharedBody> out;
  for (const auto& g : groups) out.push_back(makeBody(m, g, loops));
  return out;
}

}  // namespace passlab::codegen
